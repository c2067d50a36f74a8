import "server-only";
import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { asCaller, type Queryable } from "@/lib/db";
import { getEmbeddingProvider, tryEmbedQuery } from "@/lib/embeddings";
import { forbidden } from "@/lib/http/errors";
import { recordRetrieval } from "@/lib/metrics/retrieval";
import { auditImpersonation, resolveAgentView, type AgentView } from "./agent-view";
import { formatRetrievedContext } from "./context/format";
import type { retrieveBody, triggerBody } from "./schemas";
import type { FusedItem } from "./search/fuse";
import { searchScopes, type SearchRequest } from "./search/search-scopes";
import { levelForScopes, normalizeScopes, readableScopes, scopesForLevel, type RetrievalScope } from "./search/scopes";
import { classifyAs } from "./smart-trigger/agent-vocabulary";
import type { Trigger, TriggerLevel } from "./smart-trigger/types";
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

/** Where a retrieval looks, and why. */
interface Plan {
  level: TriggerLevel;
  triggers: Trigger[];
  /** the scopes to search, all readable by the agent's role */
  scopes: RetrievalScope[];
  /** requested scopes the role may not read */
  refusedScopes: RetrievalScope[];
  /** the caller named the scopes (the smart trigger did not run) */
  explicit: boolean;
}

/** What one retrieval served. */
interface Served {
  items: FusedItem[];
  /** the plan's scopes, and the team's when the retrieval fell back to it */
  scopes: RetrievalScope[];
  fallback: "shared" | null;
  tookMs: number;
}

/**
 * POST /retrieve: decide where to look (the caller's scopes, or the smart trigger's level), embed
 * the message, search those scopes with hybrid search under the agent's RLS (falling back to the
 * team's shared memory when a `local` retrieval finds nothing), log the call and count what was
 * served, and format a context block.
 */
export async function retrieve(caller: Caller, body: z.infer<typeof retrieveBody>) {
  const started = performance.now();
  const view = await resolveAgentView(caller, body.agentId);
  const request = { message: body.message, limit: body.limit ?? DEFAULT_LIMIT };
  const requested = body.scopes ? planForScopes(view.agent, body.scopes) : null;
  const plan = (tx?: Queryable) => requested ?? planByTrigger(view, body.message, tx);

  // The local model embeds in process, so the trigger's vocabulary check, the search and the log
  // share one transaction. A remote provider's request is never made while a connection is held:
  // then the trigger runs in a transaction of its own, before the message is embedded.
  let decided: Plan;
  let served: Served;
  if (getEmbeddingProvider().name === "local") {
    ({ decided, served } = await view.run(async (tx) => {
      const decided = await plan(tx);
      const vector = await embedMessage(body.message, decided.scopes);
      return { decided, served: await serve(tx, view, decided, { ...request, vector }, started) };
    }));
  } else {
    decided = await plan();
    const vector = await embedMessage(body.message, decided.scopes);
    served = await view.run((tx) => serve(tx, view, decided, { ...request, vector }, started));
  }
  if (view.hq) {
    await asCaller(view.hq, async (tx) => {
      await insertRetrievalLog(tx, logEntry(view, decided, served, body.message));
      await auditImpersonation(tx, view, "retrieve", { level: decided.level, items: served.items.length });
    });
  }
  const { level, triggers, refusedScopes } = decided;
  const { items, scopes, fallback, tookMs } = served;
  const context = formatRetrievedContext({ level, triggers, items, fallback });
  recordRetrieval(level, (performance.now() - started) / 1000);
  return {
    agentId: view.agent.agentId,
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

/**
 * The caller named its scopes: those the role may read are searched, the rest refused by name —
 * never answered as an empty success; when none is readable the call is refused (403).
 */
function planForScopes(agent: AgentView["agent"], scopes: readonly RetrievalScope[]): Plan {
  const readable = readableScopes(agent);
  const requested = normalizeScopes(scopes);
  const refusedScopes = requested.filter((s) => !readable.includes(s));
  const allowed = requested.filter((s) => readable.includes(s));
  if (!allowed.length) {
    throw forbidden(`${agent.name} (${agent.kind} ${agent.role}) may not read the scope${refusedScopes.length > 1 ? "s" : ""} ${refusedScopes.join(", ")}`);
  }
  return { level: levelForScopes(allowed), triggers: [], scopes: allowed, refusedScopes, explicit: true };
}

/** The smart trigger decides the level, and with it the scopes the role may read. */
async function planByTrigger(view: AgentView, message: string, tx?: Queryable): Promise<Plan> {
  const { level, triggers } = await classifyAs(view, message, tx);
  const readable = readableScopes(view.agent);
  // the level's scopes the role may read (a specialist's level never reaches conversations)
  const scopes = scopesForLevel(level, view.agent.kind).filter((s) => readable.includes(s));
  return { level, triggers, scopes, refusedScopes: [], explicit: false };
}

/** The message's vector; null when nothing is searched, the provider fails or the message has no meaning to compare. */
async function embedMessage(message: string, scopes: readonly RetrievalScope[]): Promise<number[] | null> {
  return scopes.length ? tryEmbedQuery(message) : null;
}

/**
 * Local first: an internal agent's `local` retrieval (the trigger's, not named scopes) whose own
 * scopes find nothing above the relevance floor searches the team's shared memory in the same call
 * ("if local search is insufficient, query the shared knowledge").
 */
function fallsBackToTeam(view: AgentView, plan: Plan, found: FusedItem[]): boolean {
  return !plan.explicit && plan.level === "local" && view.agent.kind === "internal" && readableScopes(view.agent).includes("team") && found.length === 0;
}

/**
 * Searches the plan's scopes (and the team's on a fallback). An agent's own retrievals are logged,
 * and what it was served counted, in the same transaction (both statements sent together); HQ's
 * are logged by the caller in HQ's name (HQ trying the playground is curation, not use).
 */
async function serve(
  tx: Queryable,
  view: AgentView,
  plan: Plan,
  request: SearchRequest,
  started: number,
): Promise<Served> {
  const found = plan.scopes.length ? await searchScopes(tx, view, plan.scopes, request) : [];
  const fallback = fallsBackToTeam(view, plan, found);
  const served: Served = {
    items: fallback ? await searchScopes(tx, view, ["team"], request) : found,
    scopes: fallback ? [...plan.scopes, "team"] : plan.scopes,
    fallback: fallback ? "shared" : null,
    tookMs: Math.round((performance.now() - started) * 100) / 100,
  };
  if (!view.hq) {
    const items = served.items;
    await Promise.all([
      insertRetrievalLog(tx, logEntry(view, plan, served, request.message)),
      countAccess(tx, {
        memories: items.filter((i) => i.source === "memories" || i.source === "team").map((i) => i.id),
        knowledge: items.filter((i) => i.source === "knowledge").map((i) => i.id),
      }),
    ]);
  }
  return served;
}

/** The retrieval log's row for a call (never the message itself, only its length). */
function logEntry(view: AgentView, plan: Plan, served: Served, message: string): RetrievalLogEntry {
  return {
    agentId: view.agent.agentId,
    clientId: view.agent.clientId,
    endpoint: "retrieve",
    callerType: view.hq ? "hq" : "agent",
    level: plan.level,
    explicitScopes: plan.explicit,
    scopes: served.scopes,
    triggerKinds: [...new Set(plan.triggers.map((t) => t.kind))],
    items: served.items.map((i) => ({ source: i.source, id: i.id })),
    tookMs: served.tookMs,
    messageChars: message.length,
    fallback: served.fallback,
  };
}
