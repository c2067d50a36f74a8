// GET /api/v1/agents/[agentId]/context — system-prompt sections: soul, scratchpad, current situation, memories, constants (?topic=)
import { route } from "@/lib/http/route";
import { assembleContext } from "@/lib/retrieval/context/assemble";
import { retrievalContracts as c } from "@/lib/retrieval/contracts";

export const GET = route(c.context, async ({ caller, query, params }) => assembleContext(caller, params.agentId, query));
