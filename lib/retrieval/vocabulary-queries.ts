import type { Queryable } from "@/lib/db";

/**
 * The agent's trigger vocabulary's generation: the global one (mhq.vocabulary_generation, advanced
 * with every change to the shared names and every removal of a person) and the newest of the
 * agent's own people (agent_people ids only grow), in one statement. It changes when any name the
 * vocabulary is built from changes; a new person of another agent leaves it as it is.
 */
export async function vocabularyGeneration(tx: Queryable, agentId: string): Promise<string> {
  const rows = await tx.query<{ g: string }>(
    `select (case when is_called then last_value::text else '0' end)
            || ':' || coalesce((select max(ap.id) from agent_people ap where ap.agent_id = $1), 0)::text as g
       from mhq.vocabulary_generation`,
    [agentId],
  );
  return rows[0]?.g ?? "0";
}
