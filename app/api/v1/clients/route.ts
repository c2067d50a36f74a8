// GET /api/v1/clients — clients the caller may see
// POST /api/v1/clients — create a client (HQ admin)
import { createClientBody } from "@/lib/clients/schemas";
import { createClient, listClients } from "@/lib/clients/service";
import { json, route } from "@/lib/http/route";

export const GET = route({ permission: "clients.read" }, async ({ caller }) => listClients(caller));

export const POST = route({ permission: "clients.write", body: createClientBody }, async ({ caller, body }) =>
  json(await createClient(caller, body), 201),
);
