// GET /api/v1/clients/[id] — one client (404 for another tenant's)
// PATCH /api/v1/clients/[id] — rename, or change its trigger terms (HQ admin)
import { updateClientBody } from "@/lib/clients/schemas";
import { getClient, updateClient } from "@/lib/clients/service";
import { pathId } from "@/lib/http/ids";
import { route } from "@/lib/http/route";

export const GET = route({ permission: "clients.read" }, async ({ caller, params }) =>
  getClient(caller, pathId(params.id, "Client")),
);

export const PATCH = route({ permission: "clients.write", body: updateClientBody }, async ({ caller, body, params }) =>
  updateClient(caller, pathId(params.id, "Client"), body),
);
