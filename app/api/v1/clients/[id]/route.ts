// GET /api/v1/clients/[id] — one client (404 for another tenant's)
// PATCH /api/v1/clients/[id] — rename, or change its trigger terms (HQ admin)
import { clientContracts as c } from "@/lib/clients/contracts";
import { getClient, updateClient } from "@/lib/clients/service";
import { route } from "@/lib/http/route";

export const GET = route(c.get, async ({ caller, params }) => getClient(caller, params.id));

export const PATCH = route(c.update, async ({ caller, body, params }) => updateClient(caller, params.id, body));
