import "server-only";
import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { asCaller, type Queryable } from "@/lib/db";
import { getEmbeddingProvider, toVectorLiteral, tryEmbed } from "@/lib/embeddings";
import { forbidden } from "@/lib/http/errors";
import { recordRetrieval } from "@/lib/metrics/retrieval";
import { auditImpersonation, resolveAgentView } from "./agent-view";
import { formatRetrievedContext } from "./context/format";
import type { retrieveBody, triggerBody } from "./schemas";
import type { FusedItem } from "./search/fuse";
import { searchScopes } from "./search/search-scopes";
import { levelForScopes, normalizeScopes, readableScopes, scopesForLevel, type RetrievalScope } from "./search/scopes";
import { classifyAs } from "./smart-trigger/agent-vocabulary";
import type { Classification, TriggerLevel } from "./smart-trigger/types";
import { countAccess } from "./usage/access-counts";
import { insertRetrievalLog, type RetrievalLogEntry } from "./usage/log-queries";

export const DEFAULT_LIMIT = 10;
/** POST /trigger: the smart trigger's verdict for a message, as the agent would get it. */
export async function triggerFor(caller: Caller, body: z.infer<typeof triggerBody>) {
  const view = await resolveAgentView(caller, body.agentId);
  const classification = await classifyAs(view, body.message);
  if (view.hq) await asCaller(view.hq, (tx) => auditImpersonation(tx, view, "trigger"));
  return { agentId: view.agent.agentId, variant: view.agent.kind, ...classification };
}

/**
 * POST /retrieve: classify the message (or take the caller's scopes), search
 * the scopes the level calls for with hybrid search under the agent's RLS, fuse the results, count
 * what was served, format a context block, and log the call.
 */
export async function retrieve(caller: Caller, body: z.infer<typeof retrieveBody>) {
  const started = performance.now();
  const view = await resolveAgentView(caller, body.agentId);
  const { agent } = view;
  const limit = body.limit ?? DEFAULT_LIMIT;

  let level: TriggerLevel;
  let triggers: Classification["triggers"] = [];
  let scopes: RetrievalScope[];
  let refusedScopes: RetrievalScope[] = [];
  const readable = readableScopes(agent);
  if (body.scopes) {
    // a scope the role may not read is never answered as an empty success: refused by name
    const requested = normalizeScopes(body.scopes);
    refusedScopes = requested.filter((s) => !readable.includes(s));
    scopes = requested.filter((s) => readable.includes(s));
    if (!scopes.length) {
      throw forbidden(`${agent.name} (${agent.kind} ${agent.role}) may not read the scope${refusedScopes.length > 1 ? "s" : ""} ${refusedScopes.join(", ")}`);
    }
    level = levelForScopes(scopes);
  } else {
    level = "none";
    scopes = [];
  }
  /** the smart trigger decides the level, and with it the scopes the role may read */
  const classifyIn = async (tx?: Queryable) => {
    if (body.scopes) return;
    ({ level, triggers } = await classifyAs(view, body.message, tx));
    // the level's scopes the role may read (a specialist's level never reaches conversations)
    scopes = scopesForLevel(level, agent.kind).filter((s) => readable.includes(s));
  };
  const embed = async () => {
    const vectors = scopes.length ? await tryEmbed([body.message]) : null;
    return vectors ? toVectorLiteral(vectors[0]!) : null;
  };
  const message = body.message;
  /**
   * Local first: an internal agent's `local` retrieval whose own scopes find nothing above the
   * relevance floor searches the team's shared memory in the same call ("if local search is
   * insufficient, query the shared knowledge"), and says so.
   */
  let fallback: "shared" | null = null;
  const fallsBack = (found: FusedItem[]) =>
    !body.scopes && level === "local" && agent.kind === "internal" && readable.includes("team") && found.length === 0;

  const logEntry = (items: FusedItem[], tookMs: number): RetrievalLogEntry => ({
    agentId: agent.agentId,
    clientId: agent.clientId,
    endpoint: "retrieve",
    callerType: view.hq ? "hq" : "agent",
    level,
    explicitScopes: Boolean(body.scopes),
    scopes,
    triggerKinds: [...new Set(triggers.map((t) => t.kind))],
    items: items.map((i) => ({ source: i.source, id: i.id })),
    tookMs,
    messageChars: body.message.length,
    fallback,
  });
  const elapsed = () => Math.round((performance.now() - started) * 100) / 100;

  const searchIn = async (tx: Queryable, embedding: string | null) => {
    let found = scopes.length ? await searchScopes(tx, view, scopes, { message, embedding, limit }) : [];
    if (fallsBack(found)) {
      found = await searchScopes(tx, view, ["team"], { message, embedding, limit });
      fallback = "shared";
      scopes = [...scopes, "team"];
    }
    const took = elapsed();
    // an agent's own retrievals are logged, and what it was served counted, in the same
    // transaction (both statements sent together); HQ's below, in HQ's name (HQ trying the
    // playground is curation, not use)
    if (!view.hq) {
      await Promise.all([
        insertRetrievalLog(tx, logEntry(found, took)),
        countAccess(tx, {
          memories: found.filter((i) => i.source === "memories" || i.source === "team").map((i) => i.id),
          knowledge: found.filter((i) => i.source === "knowledge").map((i) => i.id),
        }),
      ]);
    }
    return { items: found, tookMs: took };
  };
  // The local model embeds in process, so the trigger's vocabulary check, the search and the log
  // share one transaction. A remote provider's request is never made while a connection is held:
  // then the trigger runs in a transaction of its own, before the message is embedded.
  let served: { items: FusedItem[]; tookMs: number };
  if (getEmbeddingProvider().name === "local") {
    served = await view.run(async (tx) => {
      await classifyIn(tx);
      return searchIn(tx, await embed());
    });
  } else {
    await classifyIn();
    const embedding = await embed();
    served = await view.run((tx) => searchIn(tx, embedding));
  }
  const { items, tookMs } = served;
  if (view.hq) {
    await asCaller(view.hq, async (tx) => {
      await insertRetrievalLog(tx, logEntry(items, tookMs));
      await auditImpersonation(tx, view, "retrieve", { level, items: items.length });
    });
  }
  const context = formatRetrievedContext({ level, triggers, items, fallback });
  recordRetrieval(level, (performance.now() - started) / 1000);
  return {
    agentId: agent.agentId,
    level,
    triggers,
    scopes,
    ...(refusedScopes.length ? { refusedScopes } : {}),
    ...(fallback ? { fallback } : {}),
    items,
    context,
    tookMs,
  };
}

