import "server-only";
import type { Queryable } from "@/lib/db";
import type { AgentView } from "../agent-view";
import { listVocabularyTerms, vocabularyGeneration } from "./vocabulary-queries";
import { classify } from "./classify";
import type { Classification } from "./types";
import { compileVocabulary } from "./vocabulary";
import { candidateTerms, indexVocabulary, type VocabularyIndex } from "./vocabulary-index";
import { processWide } from "@/lib/process-wide";

/**
 * The longest a compiled vocabulary is reused. A change to the names (mhq.vocabulary_generation,
 * advanced by triggers in the database) retires every copy at the next call, on every instance.
 */
export const VOCABULARY_TTL_MS = 60_000;

interface Entry {
  expiresAt: number;
  generation: string;
  index: VocabularyIndex;
}

// one per process, so every route bundle of the server (and dev reloads) share one cache
const cache = processWide("vocabulary", () => new Map<string, Entry>());

/**
 * The agent's compiled trigger vocabulary (names from the data, see listVocabularyTerms), loaded
 * with the agent's own claims so RLS keeps a field agent's vocabulary to its own client even if
 * the query were wrong. Cached per agent for a minute: compiling is the expensive part, and a
 * classification must stay well under a millisecond.
 */
export async function vocabularyFor(view: AgentView, tx?: Queryable, now = Date.now()): Promise<VocabularyIndex> {
  const key = view.agent.agentId;
  const hit = cache.get(key);
  const load = async (q: Queryable) => {
    // read before the terms: a change committed in between makes the next call load again
    const generation = await vocabularyGeneration(q, view.agent.agentId);
    if (hit && hit.expiresAt > now && hit.generation === generation) return { generation, index: hit.index, terms: null };
    const terms = await listVocabularyTerms(q, { agentId: view.agent.agentId, kind: view.agent.kind, clientId: view.agent.clientId });
    return { generation, index: null, terms };
  };
  const found = tx ? await load(tx) : await view.run(load);
  if (found.index) return found.index;
  const index = indexVocabulary(compileVocabulary(found.terms ?? [], view.agent.name));
  cache.set(key, { expiresAt: now + VOCABULARY_TTL_MS, generation: found.generation, index });
  if (cache.size > 1000) {
    for (const [k, v] of cache) if (v.expiresAt <= now) cache.delete(k);
  }
  return index;
}

/** The smart trigger's verdict on `message` as the agent: its variant, its vocabulary, its name. */
export async function classifyAs(view: AgentView, message: string, tx?: Queryable): Promise<Classification> {
  const index = await vocabularyFor(view, tx);
  return classify(message, { variant: view.agent.kind, compiled: candidateTerms(index, message), selfName: view.agent.name });
}

/** Tests (and callers that just changed names) start from fresh vocabularies. */
export function clearVocabularyCache(): void {
  cache.clear();
}
