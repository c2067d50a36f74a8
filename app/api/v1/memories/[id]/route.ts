// GET /api/v1/memories/[id] — one memory (an agent's read counts as an access)
// PATCH /api/v1/memories/[id] — edit, resolve, archive or restore (expectedVersion: 409 when stale)
import { route } from "@/lib/http/route";
import { memoryContracts as c } from "@/lib/memories/contracts";
import { getMemory, updateMemory } from "@/lib/memories/service";

export const GET = route(c.get, async ({ caller, params }) => getMemory(caller, params.id));

export const PATCH = route(c.update, async ({ caller, body, params }) => updateMemory(caller, params.id, body));
