import { z } from "zod";
import { whoMayCall } from "@/lib/auth/permission-descriptions";
import type { Permission } from "@/lib/auth/permissions";
import { ALL_CONTRACTS } from "@/lib/contracts";
import { apiViews, type AnyContract } from "./contract";
import { fromZod } from "@/lib/json-schema/from-zod";
import { ERROR_STATUS } from "./errors";
import { REQUEST_EXAMPLES } from "./openapi-examples";

/** One tag per domain (the first part of a contract's id), in the order a reader meets them. */
export const TAGS: Record<string, { name: string; description: string }> = {
  memories: {
    name: "Memories",
    description:
      "An agent's long-term memory in three tiers — core (identity, clients, procedures), working (projects, threads, commitments) and learning (decisions, corrections, insights, outcomes) — its boot context, and the recorded conversation turns (interactions) that recall searches.",
  },
  retrieval: {
    name: "Retrieval",
    description: "Finding what an agent needs for a message: the smart trigger, ranked retrieval across scopes, the assembled context and the briefing.",
  },
  documents: { name: "Agent documents", description: "An agent's SOUL (identity), WORKING (scratchpad) and daily notes." },
  agentLog: { name: "Notes, events and playbook", description: "An agent's free notes, its logged events, and proposed playbook updates that HQ reviews." },
  lifecycle: {
    name: "Lifecycle",
    description: "The nightly consolidation, per-agent nightly reports, escalations to HQ and the outcomes of decisions.",
  },
  knowledge: { name: "Knowledge base", description: "HQ's curated knowledge entries: search, write, version history and import." },
  review: {
    name: "Contacts and review",
    description: "Contacts and their facts, suggested facts waiting for review, and the manager's review pass.",
  },
  agents: { name: "Agents", description: "The agents HQ runs, and their API keys." },
  clients: { name: "Clients", description: "The clients agents serve; a field agent belongs to one client." },
  missions: { name: "Missions", description: "HQ's missions, which agents read at boot." },
  constants: {
    name: "Locked constants",
    description: "Facts no agent may contradict (prices, policies): memories and suggestions that conflict with one are refused.",
  },
  embeddings: { name: "Embeddings", description: "Re-embedding rows that wait for a vector (after a provider outage or a model change)." },
  audit: { name: "Audit", description: "Who did what: the audit log and its CSV export." },
  auth: { name: "Sign-in and HQ users", description: "Console sign-in, first-run setup, invitations, and HQ user management." },
  backup: { name: "Backups", description: "A consistent snapshot of the embedded database, streamed while it serves (HQ admins)." },
  search: { name: "Search", description: "Agents, contacts, knowledge entries and escalations by name or title, as the caller may read them (the console's jump-to palette)." },
  system: { name: "System", description: "Liveness and this document." },
  mcp: {
    name: "MCP",
    description: "The same memory as Model Context Protocol tools, for agents whose runtime speaks MCP (Streamable HTTP).",
  },
};

const tagOf = (e: AnyContract) => TAGS[e.id.split(".")[0]!]?.name ?? TAGS.system!.name;

const errorSchema = {
  type: "object",
  description: "Every refusal and failure of the API answers this shape.",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string", enum: Object.keys(ERROR_STATUS), description: "Stable machine-readable code; the status follows from it." },
        message: { type: "string", description: "What went wrong, for a person." },
        details: { description: "Code-specific facts, e.g. the validation issues or the current version on a conflict." },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Not authenticated",
  403: "Forbidden",
  404: "Not found",
  408: "Request timeout",
  409: "Conflict",
  413: "Body too large",
  415: "Unsupported media type",
  422: "Validation failed",
  429: "Too many requests",
};

/** The headers of a 429: when to retry and, when the caller's own limits refused it, those limits (IETF httpapi ratelimit-headers draft). */
const RATE_LIMITED_HEADERS = {
  "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer" } },
  RateLimit: {
    description: 'When the caller\'s own limit refused the request: the policy it is over, with nothing left and the seconds until there is (`"rate";r=0;t=1` or `"waiting";r=0;t=2`).',
    schema: { type: "string" },
  },
  "RateLimit-Policy": {
    description: 'The caller\'s limits: requests per window and requests that may wait (`"rate";q=200;w=2, "waiting";q=32;qu="concurrent-requests"`).',
    schema: { type: "string" },
  },
};

const isSafe = (method: string) => method === "GET";

/** permissions every authenticated caller holds: no role is refused them */
const EVERY_CALLER = new Set<Permission>(["authenticated", "agents.read"]);

/**
 * What a route can answer besides success, by status, each with the reasons: derived from the contract
 * (authentication, body, query, path ids, the admission queue) plus the refusals it lists itself.
 */
export function refusalsOf(e: AnyContract, maxBodyBytes?: number): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const add = (status: number, why: string) => {
    const list = out.get(status) ?? [];
    if (!list.includes(why)) list.push(why);
    out.set(status, list);
  };
  if (e.permission !== null) {
    add(401, "No key or session was sent, or the key is unknown or revoked.");
    if (!EVERY_CALLER.has(e.permission)) add(403, `The caller's role may not call this. Who may: ${whoMayCall(e.permission)}`);
  }
  if (!isSafe(e.method)) {
    if (e.permission === null) add(403, "A cross-site request: only this server's own pages may post it.");
    else add(403, "A cookie-authenticated request from another site.");
    add(400, "The body is not valid JSON.");
    const limit = e.maxBodyBytes ?? maxBodyBytes;
    add(413, limit ? `The body is larger than ${limit.toLocaleString("en-US")} bytes.` : "The body is larger than the server's limit.");
    add(408, "The body did not arrive within the server's time (request_timeout): send it again.");
    add(415, "The body is not sent as application/json.");
    add(422, e.body ? "A field is missing, unknown, of the wrong type or out of its limits (details lists each issue)." : "A body was sent: this endpoint takes none.");
  }
  if (e.query) add(422, "A query parameter is unknown or out of its limits.");
  if (e.bodyItems) add(422, `An item of ${e.bodyItems} is refused: details.index is its 0-based position; nothing was stored.`);
  for (const m of e.path.matchAll(/\{(\w+)\}/g)) add(404, `No ${m[1]} of this value that the caller may see.`);
  for (const r of e.errors ?? []) add(ERROR_STATUS[r.code], r.when);
  add(429, "rate_limited: the caller sent more than its rate or has too many requests waiting (its limits are in RateLimit-Policy), or the server is at capacity (its queue is full or the wait too long); retry after Retry-After seconds.");
  return out;
}

type Json = Record<string, unknown>;

/** Converts schemas for one document: named views (`.meta({id})`) land in `components.schemas`. */
function schemaConverter() {
  const components: Record<string, Json> = {};
  const rewrite = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rewrite);
    if (v && typeof v === "object") {
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => [k, k === "$ref" && typeof x === "string" ? x.replace("#/$defs/", "#/components/schemas/") : rewrite(x)]),
      );
    }
    return v;
  };
  // descriptions from zod's global registry, component names from apiViews (ids elsewhere stay inline)
  const metadata = {
    get(schema: z.core.$ZodType) {
      const meta = z.globalRegistry.get(schema);
      const named = apiViews.get(schema);
      if (named) return { ...meta, id: named.id };
      if (!meta || !("id" in meta)) return meta;
      const { id: _id, ...rest } = meta;
      return rest;
    },
  } as unknown as z.core.$ZodRegistry<Record<string, unknown>>;
  const convert = (s: z.ZodType): Json => {
    const { $schema: _, $defs, ...rest } = fromZod(s, metadata) as Json & { $defs?: Record<string, Json> };
    for (const [name, def] of Object.entries($defs ?? {})) components[name] ??= rewrite(def) as Json;
    return rewrite(rest) as Json;
  };
  return { convert, components };
}

export interface OpenApiOptions {
  /** the origin the document was requested from, e.g. https://hq.example.com: where the contact page is */
  origin?: string;
  maxBodyBytes?: number;
}

export function buildOpenApiDocument(options: OpenApiOptions = {}) {
  const { convert, components } = schemaConverter();
  const paths: Record<string, Record<string, unknown>> = {};
  const usedTags = new Set<string>();
  for (const e of ALL_CONTRACTS) {
    const paramSchemas = e.params ? (convert(e.params).properties as Record<string, Json> | undefined) : undefined;
    const params = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
      ...(paramSchemas?.[m[1]!]?.description ? { description: paramSchemas[m[1]!]!.description } : {}),
    }));
    const queryParams = e.query ? queryParameters(convert(e.query)) : [];
    const success = e.response
      ? { "application/json": { schema: convert(e.response) } }
      : e.produces
        ? { [e.produces]: { schema: { type: "string", contentEncoding: "binary" } } }
        : undefined;
    const tag = tagOf(e);
    usedTags.add(tag);
    const responses: Record<string, unknown> = {
      [String(e.status ?? 200)]: { description: successDescription(e), ...(success ? { content: success } : {}) },
      ...(e.repeat ? { [String(e.repeat.status)]: { description: `Nothing new stored: ${e.repeat.when}`, ...(success ? { content: success } : {}) } } : {}),
    };
    for (const [status, reasons] of [...refusalsOf(e, options.maxBodyBytes)].sort(([a], [b]) => a - b)) {
      responses[String(status)] = {
        description: `${STATUS_TEXT[status] ?? "Refused"}: ${reasons.join(" ")}`,
        ...(status === 429 ? { headers: RATE_LIMITED_HEADERS } : {}),
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      };
    }
    responses.default = { description: "Unexpected failure (500 internal_error, 503 service_unavailable)", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
    const op: Record<string, unknown> = {
      operationId: e.id,
      tags: [tag],
      summary: e.summary,
      description: operationDescription(e),
      "x-permission": e.permission ?? "public",
      "x-who-may-call": whoMayCall(e.permission),
      ...(e.errors?.length ? { "x-rules": e.errors.map((r) => ({ code: r.code, status: ERROR_STATUS[r.code], when: r.when })) } : {}),
      security: e.permission ? [{ bearer: [] }, { session: [] }] : [],
      ...(params.length + queryParams.length > 0 ? { parameters: [...params, ...queryParams] } : {}),
      responses,
    };
    if (e.body) {
      const examples = REQUEST_EXAMPLES[e.id];
      op.requestBody = {
        required: true,
        content: { "application/json": { schema: convert(e.body), ...(examples ? { examples } : {}) } },
      };
    }
    (paths[e.path] ??= {})[e.method.toLowerCase()] = op;
  }
  paths["/api/mcp"] = mcpPathItem();
  usedTags.add(TAGS.mcp!.name);
  return {
    openapi: "3.1.0",
    info: {
      title: "Memory HQ API",
      version: "1.0.0",
      summary: "Governed long-term memory for teams of AI agents.",
      description:
        "Every endpoint answers JSON; every refusal answers `{error: {code, message, details?}}` with the status its code implies. Agents call with `Authorization: Bearer mhq_…`; the console with its session cookie. The operationIds are the TypeScript client's method names (`memories.write` is `hq.memories.write`).",
      // the repository ships no open-source license: the API is offered under its operator's terms
      license: { name: "All rights reserved", identifier: "LicenseRef-All-Rights-Reserved" },
      contact: { name: "This server's HQ administrators", ...(options.origin ? { url: `${options.origin}/docs` } : {}) },
    },
    // relative: the server the document was fetched from, whatever name or proxy the caller reached it by
    servers: [{ url: "/", description: "This server (the origin this document was fetched from)" }],
    tags: Object.values(TAGS).filter((t) => usedTags.has(t.name)),
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An agent key (mhq_…) or the ADMIN_API_KEY" },
        session: { type: "apiKey", in: "cookie", name: "mhq_session", description: "The console's session cookie (HQ users)" },
      },
      schemas: { Error: errorSchema, JsonRpcMessage: jsonRpcMessage, ...sortKeys(components) },
    },
    paths,
  };
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

function successDescription(e: AnyContract): string {
  if (e.produces) return `Success: ${e.produces}`;
  return (e.status ?? 200) === 201 ? "Created" : "Success";
}

function operationDescription(e: AnyContract): string {
  const lines = [e.summary.endsWith(".") ? e.summary : `${e.summary}.`, "", `**Who may call:** ${whoMayCall(e.permission)}`];
  if (e.errors?.length) {
    lines.push("", "**Refused when:**", ...e.errors.map((r) => `- ${r.when} (${ERROR_STATUS[r.code]} \`${r.code}\`)`));
  }
  return lines.join("\n");
}

function queryParameters(json: Json) {
  const j = json as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(j.properties ?? {}).map(([name, s]) => {
    const { description, ...schema } = s;
    return {
      name,
      in: "query",
      required: j.required?.includes(name) ?? false,
      ...(typeof description === "string" ? { description } : {}),
      schema,
    };
  });
}

const mcpError = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

const jsonRpcError = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/JsonRpcMessage" } } },
});

const jsonRpcMessage = {
  type: "object",
  description: "A JSON-RPC 2.0 message as MCP uses it",
  required: ["jsonrpc"],
  properties: {
    jsonrpc: { const: "2.0" },
    id: { type: ["string", "integer"], description: "Present on requests and their responses; absent on notifications" },
    method: { type: "string", description: "e.g. initialize, tools/list, tools/call" },
    params: { type: "object" },
    result: { type: "object" },
    error: { type: "object", required: ["code", "message"], properties: { code: { type: "integer" }, message: { type: "string" }, data: {} } },
  },
};

/** `/api/mcp` speaks JSON-RPC, not this REST API: described here so a reader knows where it is and how to call it. */
function mcpPathItem() {
  return {
    summary: "Model Context Protocol endpoint",
    description:
      "The agent's memory as MCP tools over the Streamable HTTP transport, stateless: POST one JSON-RPC 2.0 message (or a batch) per request with `Authorization: Bearer mhq_…` and `Accept: application/json, text/event-stream`; the answer is JSON. No session is kept between requests (no `Mcp-Session-Id`), so GET (a server-sent event stream) and DELETE (ending a session) answer 405. Clients that speak only stdio use the `memory-hq-mcp` bridge of the client package.",
    post: {
      operationId: "mcp.post",
      tags: [TAGS.mcp!.name],
      summary: "Send MCP JSON-RPC messages (initialize, tools/list, tools/call, …)",
      description: `Each tool calls the same service as its REST endpoint, under the key's permissions.\n\n**Who may call:** Agents with their own key (an HQ session or the ADMIN_API_KEY is refused).`,
      security: [{ bearer: [] }],
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              description: "A JSON-RPC 2.0 request or notification, or an array of them",
              oneOf: [{ $ref: "#/components/schemas/JsonRpcMessage" }, { type: "array", items: { $ref: "#/components/schemas/JsonRpcMessage" } }],
            },
            examples: {
              listTools: { summary: "List the tools this key may use", value: { jsonrpc: "2.0", id: 1, method: "tools/list" } },
            },
          },
        },
      },
      responses: {
        "200": {
          description: "The JSON-RPC response(s)",
          content: { "application/json": { schema: { description: "A JSON-RPC 2.0 response or an array of them", type: ["object", "array"] } } },
        },
        "202": { description: "Accepted: the request carried only notifications or responses" },
        "400": jsonRpcError("Not a valid JSON-RPC message"),
        "401": mcpError("No agent key was sent, or it is unknown or revoked"),
        "403": mcpError("The key is not an agent's key"),
        "406": jsonRpcError("The Accept header does not allow application/json and text/event-stream"),
      },
    },
  };
}
