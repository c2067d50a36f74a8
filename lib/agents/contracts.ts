import { z } from "zod";
import { agentIdParam, apiViews, defineContract, idParam, timestamp } from "@/lib/http/contract";
import { agentKind, agentRole, createAgentBody, createKeyBody, kbAccess, updateAgentBody } from "./schemas";

const ownLimit = z.number().int().nullable();

export const agentLimitsView = z
  .object({
    requestsPerSecond: z.number().int().describe("requests per second the agent may send after its burst"),
    burst: z.number().int().describe("requests it may send at once above that rate"),
    maxWaiting: z.number().int().describe("its requests that may wait for a turn at once; beyond, 429 rate_limited"),
    custom: z
      .object({ requestsPerSecond: ownLimit, burst: ownLimit, maxWaiting: ownLimit })
      .strict()
      .describe("the values an HQ admin set for this agent; null: the server's default (ADMISSION_CALLER_RATE, _BURST, _QUEUE)"),
  })
  .strict()
  .meta({ description: "The agent's request limits in force on the instance that answered: its own where an HQ admin set them, else the defaults. Each instance counts them on its own." })
  .register(apiViews, { id: "AgentLimits" });

export const agentView = z
  .object({
    id: z.uuid(),
    name: z.string(),
    kind: agentKind,
    role: agentRole,
    kbAccess,
    clientId: z.uuid().nullable(),
    clientName: z.string().nullable(),
    description: z.string(),
    disabledAt: timestamp.nullable(),
    limits: agentLimitsView,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .strict().meta({ description: "An agent HQ runs: internal (works for HQ) or field (serves one client)." }).register(apiViews, { id: "Agent" });

/** An agent as the list shows it: when it was last active, for callers who may see its activity. */
export const agentListItemView = agentView
  .extend({
    lastActiveAt: timestamp
      .nullable()
      .describe("the latest of the agent's key use (kept to the minute), its own retrievals and its audited writes; null when none, or for callers who may not see its activity (HQ sees it)"),
    lastActivity: z.enum(["key", "retrieval", "write"]).nullable().describe("which of the three `lastActiveAt` is"),
  })
  .strict()
  .register(apiViews, { id: "AgentListItem" });

export const agentKeyView = z
  .object({
    id: z.uuid(),
    agentId: z.uuid(),
    label: z.string(),
    prefix: z.string(),
    createdByName: z.string(),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable(),
    revokedAt: timestamp.nullable(),
  })
  .strict().register(apiViews, { id: "AgentKey" });

/** The key itself appears in this answer only; it is stored hashed. */
export const issuedKeyView = z.object({ id: z.uuid(), key: z.string(), prefix: z.string() }).strict().register(apiViews, { id: "IssuedKey" });

const agentParams = z.object({ agentId: agentIdParam }).strict();
const one = z.object({ agent: agentView }).strict();

export const agentContracts = {
  list: defineContract({
    id: "agents.list",
    method: "GET", path: "/api/v1/agents", permission: "agents.read", summary: "List the agents the caller may see, with when each was last active",
    response: z.object({ agents: z.array(agentListItemView) }).strict(),
  }),
  create: defineContract({
    id: "agents.create",
    errors: [
      { code: "conflict", when: "An agent with this name already exists." },
    ],
    method: "POST", path: "/api/v1/agents", permission: "agents.write",
    summary: "Create an agent (field agents need clientId and never get kbAccess write)",
    body: createAgentBody, response: one, status: 201,
  }),
  get: defineContract({
    id: "agents.get",
    method: "GET", path: "/api/v1/agents/{agentId}", permission: "agents.read", summary: "Get an agent (`me` for the caller)",
    params: agentParams, response: one,
  }),
  update: defineContract({
    id: "agents.update",
    errors: [
      { code: "conflict", when: "An agent with this name already exists." },
    ],
    method: "PATCH", path: "/api/v1/agents/{agentId}", permission: "agents.write", summary: "Rename, change role or kbAccess, set request limits, disable",
    params: agentParams, body: updateAgentBody, response: one,
  }),
  listKeys: defineContract({
    id: "agents.listKeys",
    method: "GET", path: "/api/v1/agents/{agentId}/keys", permission: "keys.manage", summary: "List an agent's keys (no secrets)",
    params: agentParams, response: z.object({ keys: z.array(agentKeyView) }).strict(),
  }),
  issueKey: defineContract({
    id: "agents.issueKey",
    method: "POST", path: "/api/v1/agents/{agentId}/keys", permission: "keys.manage", summary: "Issue a key (shown once)",
    params: agentParams, body: createKeyBody, response: issuedKeyView, status: 201,
  }),
  revokeKey: defineContract({
    id: "agents.revokeKey",
    method: "DELETE", path: "/api/v1/agents/{agentId}/keys/{keyId}", permission: "keys.manage", summary: "Revoke a key at once",
    params: z.object({ agentId: agentIdParam, keyId: idParam("Key") }).strict(),
    response: z.object({ id: z.uuid(), revoked: z.literal(true) }).strict(),
  }),
};
