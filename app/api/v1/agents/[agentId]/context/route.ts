// GET /api/v1/agents/[agentId]/context — system-prompt sections: soul, scratchpad, current situation, memories, constants (?topic=)
import { route } from "@/lib/http/route";
import { assembleContext } from "@/lib/retrieval/context";
import { contextQuery } from "@/lib/retrieval/schemas";

export const GET = route({ permission: "retrieval.use", query: contextQuery }, async ({ caller, query, params }) =>
  assembleContext(caller, params.agentId, query),
);
