import "server-only";
import type { Caller } from "@/lib/auth/caller";
import { asCaller } from "@/lib/db";
import type { ServerResponse } from "@/lib/http/contract";
import { auditImpersonation, resolveAgentView, type AgentView } from "../agent-view";
import type { retrievalContracts } from "../contracts";
import { formatBriefing, type BriefingData } from "./format";
import * as q from "./queries";
import { processWide } from "@/lib/process-wide";

/** recent events across all agents, last 6 hours */
export const BRIEFING_WINDOW_HOURS = 6;
/** 5-minute cache per agent */
export const BRIEFING_TTL_MS = 5 * 60 * 1000;

const LIMITS = { events: 20, missions: 10, interactions: 10, proposals: 5 };

/** A briefing as built and cached; whether it came from the cache is said per answer. */
export type Briefing = Omit<ServerResponse<typeof retrievalContracts.briefing>, "cached">;

interface Entry {
  expiresAt: number;
  briefing: Briefing;
}

// per agent, shared by every route bundle of the process (GET …/briefing and GET …/context)
const cache = processWide("briefings", () => new Map<string, Entry>());

/**
 * The situational briefing for the agent: events of the last 6 hours across the agents it may
 * see (a field agent: its own client's), missions in flight, conversations it was not part of, and
 * proposals awaiting review — read with the agent's own claims, so each role sees what its policies
 * allow. Built at most once per 5 minutes per agent; `now` is injectable for tests and replays.
 */
export async function briefingFor(view: AgentView, opts: { now?: Date } = {}): Promise<{ briefing: Briefing; cached: boolean }> {
  const now = opts.now ?? new Date();
  // per agent as it is now: a role, kind or client changed by HQ reads afresh with the new policies
  // (an orchestrator demoted to specialist no longer sees conversations it may not read)
  const { agentId, kind, role, clientId: ownClient } = view.agent;
  const key = `${agentId}:${kind}:${role}:${ownClient ?? ""}`;
  const hit = cache.get(key);
  if (hit && hit.expiresAt > now.getTime()) return { briefing: hit.briefing, cached: true };

  const since = new Date(now.getTime() - BRIEFING_WINDOW_HOURS * 60 * 60 * 1000);
  const clientId = view.agent.kind === "field" ? view.agent.clientId : null;
  const data = await view.run(async (tx) => {
    const window = { since, now, clientId };
    const events = await q.listRecentEvents(tx, { ...window, limit: LIMITS.events });
    const missions = await q.listOpenMissions(tx, { clientId, limit: LIMITS.missions });
    const interactions = await q.listOthersInteractions(tx, { ...window, agentId: view.agent.agentId, limit: LIMITS.interactions });
    const suggestions = await q.pendingSuggestions(tx, { clientId, limit: LIMITS.proposals });
    const playbookUpdates = await q.proposedPlaybookUpdates(tx, { clientId, limit: LIMITS.proposals });
    return { events, missions, interactions, proposals: { suggestions, playbookUpdates } };
  });
  const body: BriefingData = { windowHours: BRIEFING_WINDOW_HOURS, since, ...data };
  const expiresAt = now.getTime() + BRIEFING_TTL_MS;
  const briefing: Briefing = {
    agentId,
    generatedAt: now.toISOString(),
    expiresAt: new Date(expiresAt).toISOString(),
    ...body,
    text: formatBriefing(body),
  };
  cache.set(key, { expiresAt, briefing });
  if (cache.size > 1000) {
    for (const [k, v] of cache) if (v.expiresAt <= now.getTime()) cache.delete(k);
  }
  return { briefing, cached: false };
}

/** GET /agents/{agentId}/briefing */
export async function getBriefing(caller: Caller, agentIdParam: string | undefined, opts: { now?: Date } = {}) {
  const view = await resolveAgentView(caller, agentIdParam);
  const { briefing, cached } = await briefingFor(view, opts);
  if (view.hq) await asCaller(view.hq, (tx) => auditImpersonation(tx, view, "briefing"));
  return { ...briefing, cached };
}

/** Tests start from an empty cache. */
export function clearBriefingCache(): void {
  cache.clear();
}
