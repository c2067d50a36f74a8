import "server-only";
import { requireVisibleAgent } from "@/lib/agents/service";
import type { Caller } from "@/lib/auth/caller";
import type { Queryable } from "@/lib/db";
import { forbidden, notFound } from "@/lib/http/errors";

/**
 * The agent whose private memory (documents, agent-scope memories) the caller wants. An agent
 * reaches only its own: another agent's answers 404 — the same answer as an agent that does not
 * exist, so nothing leaks. HQ users reach every agent they can see. RLS enforces the same rule.
 */
export async function requireOwnAgent(tx: Queryable, caller: Caller, agentId: string) {
  if (caller.type === "agent" && caller.agentId !== agentId) throw notFound("Agent");
  return requireVisibleAgent(tx, agentId);
}

/**
 * The agent a memory or document is filed under, for writes: isolated agents (code, deploy,
 * migrations) have no memory at all, whoever writes — an HQ admin included. A trigger refuses the
 * same rows in the database.
 */
export async function requireMemoryHolder(tx: Queryable, caller: Caller, agentId: string) {
  const agent = await requireOwnAgent(tx, caller, agentId);
  if (agent.role === "isolated") throw forbidden("Isolated agents have no memory");
  return agent;
}
