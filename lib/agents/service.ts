import "server-only";
import type { z } from "zod";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { newAgentKey } from "@/lib/auth/secrets";
import { asCaller, type Queryable } from "@/lib/db";
import { ApiError, notFound } from "@/lib/http/errors";
import { pathId } from "@/lib/http/ids";
import * as q from "./queries";
import type { createAgentBody, createKeyBody, updateAgentBody } from "./schemas";

/** Resolves `{agentId}` from a path: `me` is the calling agent. */
export function resolveAgentId(caller: Caller, agentId: string | undefined): string {
  if (agentId === "me") {
    if (caller.type !== "agent") throw new ApiError("bad_request", "'me' names the calling agent; sign in with an agent key");
    return caller.agentId;
  }
  return pathId(agentId, "Agent");
}

/** Loads an agent the caller may see, or answers 404 (never 403: no existence leak). */
export async function requireVisibleAgent(tx: Queryable, id: string) {
  const agent = await q.getAgent(tx, { id });
  if (!agent) throw notFound("Agent");
  return agent;
}

export async function listAgents(caller: Caller) {
  return { agents: await asCaller(caller, (tx) => q.listAgents(tx)) };
}

export async function getAgent(caller: Caller, agentId: string | undefined) {
  const id = resolveAgentId(caller, agentId);
  return { agent: await asCaller(caller, (tx) => requireVisibleAgent(tx, id)) };
}

export async function createAgent(caller: Caller, body: z.infer<typeof createAgentBody>) {
  return asCaller(caller, async (tx) => {
    if (await q.nameTaken(tx, { name: body.name })) {
      throw new ApiError("conflict", `An agent named "${body.name}" already exists`);
    }
    if (body.clientId) {
      const client = await tx.query("select 1 from clients where id = $1", [body.clientId]);
      if (!client.length) throw new ApiError("validation_failed", "clientId does not name a client");
    }
    const id = await q.insertAgent(tx, {
      name: body.name,
      kind: body.kind,
      role: body.role,
      kbAccess: body.kbAccess ?? "read",
      clientId: body.clientId ?? null,
      description: body.description ?? "",
    });
    await recordAudit(tx, {
      action: "agent.create",
      targetType: "agent",
      targetId: id,
      clientId: body.clientId ?? null,
      details: { name: body.name, kind: body.kind, role: body.role, kbAccess: body.kbAccess ?? "read" },
    });
    return { agent: await requireVisibleAgent(tx, id) };
  });
}

export async function updateAgent(caller: Caller, agentId: string | undefined, body: z.infer<typeof updateAgentBody>) {
  const id = resolveAgentId(caller, agentId);
  return asCaller(caller, async (tx) => {
    const current = await requireVisibleAgent(tx, id);
    if (body.kbAccess === "write" && current.kind === "field") {
      throw new ApiError("validation_failed", "field agents can never write the knowledge base");
    }
    if (body.name && (await q.nameTaken(tx, { name: body.name, exceptId: id }))) {
      throw new ApiError("conflict", `An agent named "${body.name}" already exists`);
    }
    await q.updateAgent(tx, { id, ...body });
    await recordAudit(tx, { action: "agent.update", targetType: "agent", targetId: id, clientId: current.clientId, details: body });
    return { agent: await requireVisibleAgent(tx, id) };
  });
}

export async function listKeys(caller: Caller, agentId: string | undefined) {
  const id = resolveAgentId(caller, agentId);
  return asCaller(caller, async (tx) => {
    await requireVisibleAgent(tx, id);
    return { keys: await q.listKeys(tx, { agentId: id }) };
  });
}

/** Issues a key; the clear key is returned once and never stored. */
export async function issueKey(caller: Caller, agentId: string | undefined, body: z.infer<typeof createKeyBody>) {
  const id = resolveAgentId(caller, agentId);
  return asCaller(caller, async (tx) => {
    const agent = await requireVisibleAgent(tx, id);
    const { key, prefix, hash } = newAgentKey();
    const keyId = await q.insertKey(tx, { agentId: id, label: body.label ?? "", prefix, hash, createdByName: caller.name });
    await recordAudit(tx, {
      action: "agent_key.issue",
      targetType: "agent",
      targetId: id,
      clientId: agent.clientId,
      details: { keyId, prefix, label: body.label ?? "" },
    });
    return { id: keyId, key, prefix };
  });
}

export async function revokeKey(caller: Caller, agentId: string | undefined, keyId: string) {
  const id = resolveAgentId(caller, agentId);
  return asCaller(caller, async (tx) => {
    const agent = await requireVisibleAgent(tx, id);
    const revoked = await q.revokeKey(tx, { agentId: id, keyId });
    if (!revoked) throw notFound("Key");
    await recordAudit(tx, { action: "agent_key.revoke", targetType: "agent", targetId: id, clientId: agent.clientId, details: { keyId } });
    return { id: keyId, revoked: true as const };
  });
}
