// GET /api/v1/clients — clients the caller may see
// POST /api/v1/clients — create a client (HQ admin)
import { clientContracts as c } from "@/lib/clients/contracts";
import { createClient, listClients } from "@/lib/clients/service";
import { route } from "@/lib/http/route";

export const GET = route(c.list, async ({ caller }) => listClients(caller));

export const POST = route(c.create, async ({ caller, body }) => createClient(caller, body));
