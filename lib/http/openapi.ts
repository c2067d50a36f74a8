import { z } from "zod";
import type { Permission } from "@/lib/auth/permissions";
import { loginBody, magicLinkBody, oauthQuery, supabaseCallbackQuery } from "@/lib/auth/schemas";
import { ALL_CONTRACTS } from "@/lib/contracts";
import {
  consolidateBody,
  createEscalationBody,
  listEscalationsQuery,
  listReportsQuery,
  outcomesQuery,
  resolveEscalationBody,
} from "@/lib/lifecycle/schemas";
import type { AnyContract } from "./contract";

/** A route still written with the options object (`route({permission, body, query}, handler)`). */
export interface EndpointDoc {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI path, `{param}` style */
  path: string;
  summary: string;
  permission: Permission | null;
  body?: z.ZodType;
  query?: z.ZodType;
  response?: z.ZodType;
  success?: number;
}

/**
 * Routes not yet described by a contract. Prefer a contract in `lib/<domain>/contracts.ts` (listed in
 * `lib/contracts.ts`); an entry here keeps such a route in the document until it is converted.
 */
export const ENDPOINTS: EndpointDoc[] = [
  { method: "POST", path: "/api/v1/auth/supabase/password", summary: "Sign in through Supabase Auth with email and password (when configured; 403 with details.reason for users HQ does not map)", permission: null, body: loginBody },
  { method: "POST", path: "/api/v1/auth/supabase/magic-link", summary: "Email a Supabase Auth sign-in link (same answer for unknown addresses)", permission: null, body: magicLinkBody },
  { method: "GET", path: "/api/v1/auth/supabase/oauth", summary: "Start an OAuth sign-in at Supabase (303 to the provider)", permission: null, query: oauthQuery, success: 303 },
  { method: "GET", path: "/api/v1/auth/supabase/callback", summary: "Where magic links and OAuth sign-ins return (303 to the console or the refusal page)", permission: null, query: supabaseCallbackQuery, success: 303 },
  { method: "POST", path: "/api/v1/jobs/consolidate", summary: "Nightly consolidation: archive daily notes and expired learning, prune resolved working items, purge notes, promote, flag for verification, list decisions awaiting outcomes, write reports (now replays; dryRun changes nothing)", permission: "lifecycle.consolidate", body: consolidateBody },
  { method: "GET", path: "/api/v1/agents/{agentId}/reports", summary: "The agent's nightly reports, newest first", permission: "reports.read", query: listReportsQuery },
  { method: "GET", path: "/api/v1/agents/{agentId}/reports/{date}", summary: "One day's nightly report as fields and markdown", permission: "reports.read" },
  { method: "GET", path: "/api/v1/escalations", summary: "Escalations (a field agent: its own client's), with counts", permission: "escalations.read", query: listEscalationsQuery },
  { method: "POST", path: "/api/v1/escalations", summary: "Raise an escalation: similar knowledge, and a captured fix of an earlier resolved escalation first when one matches", permission: "escalations.raise", body: createEscalationBody, success: 201 },
  { method: "POST", path: "/api/v1/escalations/{id}/resolve", summary: "Resolve an escalation, optionally writing the fix to the knowledge base linked to it", permission: "escalations.resolve", body: resolveEscalationBody },
  { method: "GET", path: "/api/v1/outcomes", summary: "Decisions awaiting outcomes, success rates per agent and tag, recent outcomes", permission: "outcomes.read", query: outcomesQuery },
];

/** Every documented operation: the contracts, then the routes still described here. */
export function documentedEndpoints(): AnyContract[] {
  return [
    ...ALL_CONTRACTS,
    ...ENDPOINTS.map((e) => ({ ...e, status: e.success }) as AnyContract),
  ];
}

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

// requests are described as the client sends them; responses as they travel (dates as ISO strings): both are the schemas' input side
const toSchema = (s: z.ZodType) => z.toJSONSchema(s, { io: "input", unrepresentable: "any", target: "openapi-3.0" });

export function buildOpenApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of documentedEndpoints()) {
    const params = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const queryParams = e.query ? queryParameters(e.query) : [];
    const success = e.response
      ? { "application/json": { schema: toSchema(e.response) } }
      : e.produces
        ? { [e.produces]: { schema: { type: "string", format: "binary" } } }
        : undefined;
    const op: Record<string, unknown> = {
      summary: e.summary,
      "x-permission": e.permission ?? "public",
      security: e.permission ? [{ bearer: [] }, { session: [] }] : [],
      parameters: [...params, ...queryParams],
      responses: {
        [String(e.status ?? 200)]: { description: "Success", ...(success ? { content: success } : {}) },
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
