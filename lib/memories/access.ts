import "server-only";
import { requireVisibleAgent } from "@/lib/agents/service";
import type { Caller } from "@/lib/auth/caller";
import type { Queryable } from "@/lib/db";
import { notFound } from "@/lib/http/errors";

/**
 * The agent whose private memory (documents, agent-scope memories) the caller wants. An agent
 * reaches only its own: another agent's answers 404 — the same answer as an agent that does not
 * exist, so nothing leaks. HQ users reach every agent they can see. RLS enforces the same rule.
 */
export async function requireOwnAgent(tx: Queryable, caller: Caller, agentId: string) {
  if (caller.type === "agent" && caller.agentId !== agentId) throw notFound("Agent");
  return requireVisibleAgent(tx, agentId);
}
