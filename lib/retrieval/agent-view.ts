import "server-only";
import { requireVisibleAgent, resolveAgentId } from "@/lib/agents/service";
import type { AgentRow } from "@/lib/agents/queries";
import { recordAudit } from "@/lib/audit/queries";
import type { AgentCaller, Caller, HqCaller } from "@/lib/auth/caller";
import { asCaller, getDatabase, type Queryable } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { ApiError, notFound } from "@/lib/http/errors";

/** The claims an agent's own API key would carry. */
export function agentCallerFromRow(agent: Pick<AgentRow, "id" | "name" | "kind" | "role" | "clientId" | "kbAccess">): AgentCaller {
  return {
    type: "agent",
    agentId: agent.id,
    name: agent.name,
    kind: agent.kind,
    role: agent.role,
    clientId: agent.clientId,
    kbAccess: agent.kbAccess,
  };
}

/**
 * The agent a retrieval call serves, and how to query as it.
 *
 * Agents retrieve for themselves only (naming another agent answers 404, as for any object the
 * caller may not see). HQ users name the agent and the queries then run with that agent's claims,
 * not HQ's: HQ may read everything, and a playground that answered with HQ's view would show items
 * the agent itself never gets. Each such call is audited (`retrieval.impersonate`).
 */
export interface AgentView {
  /** who the queries run as */
  agent: AgentCaller;
  /** the HQ user acting as the agent; null when the agent calls for itself */
  hq: HqCaller | null;
  /** runs `fn` in one transaction with the agent's claims (RLS as the agent) */
  run<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}

export async function resolveAgentView(caller: Caller, agentIdParam: string | undefined): Promise<AgentView> {
  if (caller.type === "agent") {
    if (agentIdParam !== undefined && agentIdParam !== "me" && agentIdParam.toLowerCase() !== caller.agentId) throw notFound("Agent");
    return { agent: caller, hq: null, run: (fn) => asCaller(caller, fn) };
  }
  if (agentIdParam === undefined) {
    throw new ApiError("validation_failed", "agentId: HQ callers name the agent to act as", [
      { path: "agentId", message: "HQ callers name the agent to act as", code: "custom" },
    ]);
  }
  const agentId = resolveAgentId(caller, agentIdParam);
  const row = await asCaller(caller, (tx) => requireVisibleAgent(tx, agentId));
  if (row.role === "isolated") {
    throw new ApiError("validation_failed", `${row.name} is an isolated agent: it has no memory to retrieve from`);
  }
  const agent = agentCallerFromRow(row);
  return {
    agent,
    hq: caller,
    run: async (fn) => withClaims(await getDatabase(), claimsFor(agent), fn),
  };
}

/** Records, in the HQ user's own transaction, that it acted as the agent. */
export function auditImpersonation(tx: Queryable, view: AgentView, endpoint: string, details: Record<string, unknown> = {}) {
  return recordAudit(tx, {
    action: "retrieval.impersonate",
    targetType: "agent",
    targetId: view.agent.agentId,
    clientId: view.agent.clientId,
    details: { endpoint, agentName: view.agent.name, ...details },
  });
}
