import "server-only";
import type { Queryable } from "@/lib/db";
import type { VocabularyTerm } from "./vocabulary";

// SQL of the smart trigger's vocabulary, run with the agent's own claims (RLS as the agent).

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

/** At most this many contact names join a vocabulary (most recently changed first). */
export const VOCABULARY_CONTACTS = 500;
/**
 * At most this many people of the agent's own memory join its vocabulary: its speakers and the names
 * its memories mention before the names its conversations mention, each most recently met first.
 */
export const VOCABULARY_PEOPLE = 500;

/**
 * The names the smart trigger listens for, from the data. Internal agents: every other agent, every
 * client and its trigger terms, contacts, and missions in flight. Field agents: only their own
 * client's name, trigger terms and contacts — never an internal team name, never a mission. Both:
 * the people in the agent's own memory (agent_people: the speakers of its conversations, the
 * names its own memories mention and the names its conversations mention inside a sentence), which
 * RLS keeps to the agent's own rows.
 */
export function listVocabularyTerms(tx: Queryable, p: { agentId: string; kind: "internal" | "field"; clientId: string | null }) {
  // the speakers and the names its memories mention first, then the names its turns mention
  const people = `(select ap.name, case when ap.source = 'mention' then 'mention' else 'person' end, 9
                     from agent_people ap where ap.agent_id = $3
                    order by ap.source = 'mention', ap.id desc limit $4)`;
  if (p.kind === "field") {
    return tx.query<VocabularyTerm>(
      `select term, type from (
         select c.name as term, 'client' as type, 0 as ord from clients c where c.id = $1
         union all
         select unnest(c.trigger_terms), 'term', 1 from clients c where c.id = $1
         union all
         (select ct.name, 'contact', 2 from contacts ct
           where ct.client_id = $1 and ct.name is not null and not ct.opt_out
           order by ct.updated_at desc limit $2)
         union all
         ${people}
       ) v order by ord`,
      [p.clientId, VOCABULARY_CONTACTS, p.agentId, VOCABULARY_PEOPLE],
    );
  }
  return tx.query<VocabularyTerm>(
    `select term, type from (
       select a.name as term, 'agent' as type, 0 as ord from agents a where a.id <> $1 and a.disabled_at is null
       union all
       select c.name, 'client', 1 from clients c
       union all
       select unnest(c.trigger_terms), 'term', 2 from clients c
       union all
       select m.title, 'mission', 3 from missions m where m.status in ('planned', 'active', 'blocked')
       union all
       (select ct.name, 'contact', 4 from contacts ct
         where ct.name is not null and not ct.opt_out
         order by ct.updated_at desc limit $2)
       union all
       ${people}
     ) v order by ord`,
    [p.agentId, VOCABULARY_CONTACTS, p.agentId, VOCABULARY_PEOPLE],
  );
}
