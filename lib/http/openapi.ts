import { z } from "zod";
import type { Permission } from "@/lib/auth/permissions";
import { ALL_CONTRACTS } from "@/lib/contracts";
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
export const ENDPOINTS: EndpointDoc[] = [];

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
