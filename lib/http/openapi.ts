import { z } from "zod";
import { createAgentBody, createKeyBody, updateAgentBody } from "@/lib/agents/schemas";
import { listAuditQuery } from "@/lib/audit/schemas";
import { acceptInviteBody, inviteUserBody, loginBody, setupBody, updateUserBody } from "@/lib/auth/schemas";
import type { Permission } from "@/lib/auth/permissions";
import { createClientBody, updateClientBody } from "@/lib/clients/schemas";
import { putConstantBody } from "@/lib/locked-constants/schemas";
import { createMissionBody, listMissionsQuery, updateMissionBody } from "@/lib/missions/schemas";

export interface EndpointDoc {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI path, `{param}` style */
  path: string;
  summary: string;
  permission: Permission | null;
  body?: z.ZodType;
  query?: z.ZodType;
  success?: number;
}

/**
 * Every /api route with the zod schemas its handler parses. The OpenAPI document is generated from
 * this list, and a unit test checks that it names every route file and method, so the two stay in step.
 */
export const ENDPOINTS: EndpointDoc[] = [
  { method: "GET", path: "/api/health", summary: "Liveness and database transport", permission: null },
  { method: "GET", path: "/api/v1/openapi.json", summary: "This document", permission: null },
  { method: "GET", path: "/api/v1/auth/session", summary: "Current HQ user and whether setup is needed", permission: null },
  { method: "POST", path: "/api/v1/auth/setup", summary: "Create the first HQ admin", permission: null, body: setupBody, success: 201 },
  { method: "POST", path: "/api/v1/auth/login", summary: "Sign in (session cookie)", permission: null, body: loginBody },
  { method: "POST", path: "/api/v1/auth/logout", summary: "Sign out", permission: null },
  { method: "POST", path: "/api/v1/auth/accept-invite", summary: "Accept an invitation and set a password", permission: null, body: acceptInviteBody },
  { method: "GET", path: "/api/v1/hq-users", summary: "List HQ users", permission: "users.manage" },
  { method: "POST", path: "/api/v1/hq-users", summary: "Invite an HQ user", permission: "users.manage", body: inviteUserBody, success: 201 },
  { method: "PATCH", path: "/api/v1/hq-users/{id}", summary: "Change role, name or disable an HQ user", permission: "users.manage", body: updateUserBody },
  { method: "GET", path: "/api/v1/clients", summary: "List clients", permission: "clients.read" },
  { method: "POST", path: "/api/v1/clients", summary: "Create a client", permission: "clients.write", body: createClientBody, success: 201 },
  { method: "GET", path: "/api/v1/clients/{id}", summary: "Get a client", permission: "clients.read" },
  { method: "PATCH", path: "/api/v1/clients/{id}", summary: "Update a client", permission: "clients.write", body: updateClientBody },
  { method: "GET", path: "/api/v1/agents", summary: "List agents", permission: "agents.read" },
  { method: "POST", path: "/api/v1/agents", summary: "Create an agent", permission: "agents.write", body: createAgentBody, success: 201 },
  { method: "GET", path: "/api/v1/agents/{agentId}", summary: "Get an agent (`me` for the caller)", permission: "agents.read" },
  { method: "PATCH", path: "/api/v1/agents/{agentId}", summary: "Update an agent", permission: "agents.write", body: updateAgentBody },
  { method: "GET", path: "/api/v1/agents/{agentId}/keys", summary: "List an agent's keys", permission: "keys.manage" },
  { method: "POST", path: "/api/v1/agents/{agentId}/keys", summary: "Issue a key (shown once)", permission: "keys.manage", body: createKeyBody, success: 201 },
  { method: "DELETE", path: "/api/v1/agents/{agentId}/keys/{keyId}", summary: "Revoke a key", permission: "keys.manage" },
  { method: "GET", path: "/api/v1/missions", summary: "List missions", permission: "missions.read", query: listMissionsQuery },
  { method: "POST", path: "/api/v1/missions", summary: "Create a mission", permission: "missions.write", body: createMissionBody, success: 201 },
  { method: "PATCH", path: "/api/v1/missions/{id}", summary: "Update a mission", permission: "missions.write", body: updateMissionBody },
  { method: "GET", path: "/api/v1/locked-constants", summary: "List locked constants", permission: "constants.read" },
  { method: "PUT", path: "/api/v1/locked-constants/{key}", summary: "Create or change a locked constant", permission: "constants.write", body: putConstantBody },
  { method: "DELETE", path: "/api/v1/locked-constants/{key}", summary: "Delete a locked constant", permission: "constants.write" },
  { method: "GET", path: "/api/v1/audit", summary: "Audit log", permission: "audit.read", query: listAuditQuery },
];

const errorSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "string" }, message: { type: "string" }, details: {} },
    },
  },
};

const toSchema = (s: z.ZodType) => z.toJSONSchema(s, { io: "input", unrepresentable: "any", target: "openapi-3.0" });

export function buildOpenApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of ENDPOINTS) {
    const params = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const queryParams = e.query ? queryParameters(e.query) : [];
    const op: Record<string, unknown> = {
      summary: e.summary,
      "x-permission": e.permission ?? "public",
      security: e.permission ? [{ bearer: [] }, { session: [] }] : [],
      parameters: [...params, ...queryParams],
      responses: {
        [String(e.success ?? 200)]: { description: "Success", content: { "application/json": { schema: {} } } },
        default: { description: "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      },
    };
    if (e.body) op.requestBody = { required: true, content: { "application/json": { schema: toSchema(e.body) } } };
    (paths[e.path] ??= {})[e.method.toLowerCase()] = op;
  }
  return {
    openapi: "3.0.3",
    info: { title: "Memory HQ API", version: "1.0.0", description: "Governed long-term memory for teams of AI agents." },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "Agent key (mhq_…) or ADMIN_API_KEY" },
        session: { type: "apiKey", in: "cookie", name: "mhq_session" },
      },
      schemas: { Error: errorSchema },
    },
    paths,
  };
}

function queryParameters(schema: z.ZodType) {
  const json = toSchema(schema) as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    schema: s,
  }));
}
