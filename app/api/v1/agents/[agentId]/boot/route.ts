// GET /api/v1/agents/[agentId]/boot — the boot context: soul, scratchpad, today's note, core, pending, recent, constants, team highlights
import { route } from "@/lib/http/route";
import { getBootContext } from "@/lib/memories/boot-context";
import { memoryContracts as c } from "@/lib/memories/contracts";

export const GET = route(c.boot, async ({ caller, params }) => getBootContext(caller, params.agentId));
