import { z } from "zod";
import type { Permission } from "@/lib/auth/permissions";
import type { ErrorCode } from "./errors";
import { pathId } from "./ids";

/**
 * One contract per endpoint: the route wrapper parses with it, the OpenAPI document and the MCP tools
 * are generated from it, and the console and the TypeScript client are typed by it, so an endpoint is
 * described once. Importable from the browser (no server code).
 */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Contract<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
> {
  /**
   * `<domain>.<name>`, unique across the API (a unit test checks it): the OpenAPI operationId, and the
   * name the TypeScript client calls it by (`hq.memories.write`).
   */
  id: string;
  method: Method;
  /** OpenAPI style: `/api/v1/memories/{id}` */
  path: string;
  /** who may call; null makes the route public (no authentication) */
  permission: Permission | null;
  summary: string;
  params?: P;
  query?: Q;
  body?: B;
  /** the JSON the endpoint answers with; omitted for non-JSON answers (see `produces`) */
  response?: R;
  /** success status (default 200) */
  status?: number;
  /**
   * The other success a write can answer, and when: a repeat that stores nothing new (a retry with an id
   * already stored) answers 200 with the same response where the first call answered 201.
   */
  repeat?: { status: 200; when: string };
  /** content type of a non-JSON answer, e.g. application/zip */
  produces?: string;
  maxBodyBytes?: number;
  /**
   * false: the request never waits for an admission turn and never counts against its caller's
   * limits (a health check must answer while the queue is full; it touches one connection for a
   * moment).
   */
  queued?: false;
  /**
   * A batch's array field in the body: a refusal of one of its items answers 422 with
   * `details.index`, the 0-based position of the first bad item.
   */
  bodyItems?: string;
  /**
   * Refusals beyond those every contract implies (401/403 from `permission`, 400/413/415/422 from a
   * body, 404 from path parameters, 429 from admission): the rules a caller can trip over, in words.
   * The OpenAPI document lists them under their status and the console's Docs page shows them.
   */
  errors?: readonly ContractError[];
}

/** One way a call can be refused: its error code (which fixes the status) and when, in a sentence. */
export interface ContractError {
  code: ErrorCode;
  when: string;
}

export type AnyContract = Contract<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined>;

/**
 * The views the OpenAPI document names as components (`Memory`, `Agent`, …): a view registers itself
 * with `.register(apiViews, { id })`. A registry of its own, not zod's global one, so every other
 * conversion of the same schemas (MCP tool schemas) stays inline as before.
 */
export const apiViews = z.registry<{ id: string }>();

export const defineContract = <const C extends AnyContract>(c: C): C => c;

type In<S> = S extends z.ZodType ? z.input<S> : undefined;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler returns: the response schema's server side (dates may be Date objects). */
export type ServerResponse<C extends AnyContract> = C["response"] extends z.ZodType ? z.output<C["response"]> : unknown;
/** What the wire carries: the response schema's JSON side (dates as ISO strings). */
export type WireResponse<C extends AnyContract> = C["response"] extends z.ZodType ? z.input<C["response"]> : unknown;
export type WireBody<C extends AnyContract> = In<C["body"]>;
export type WireQuery<C extends AnyContract> = In<C["query"]>;
export type WireParams<C extends AnyContract> = In<C["params"]>;
export type ParsedParams<C extends AnyContract> = C["params"] extends z.ZodType ? Out<C["params"]> : Record<string, string>;

/**
 * A point in time. On the wire an ISO 8601 string; a handler may return a Date (as rows from the
 * database carry them), which `JSON.stringify` turns into the same string.
 */
export const timestamp = z.codec(z.string().meta({ format: "date-time" }), z.union([z.date(), z.string()]), {
  decode: (s) => s,
  encode: (v) => (v instanceof Date ? v.toISOString() : v),
});

/** A UUID path segment; anything else cannot name an object, so it answers 404 `<what> not found`. */
export const idParam = (what: string) => z.string().transform((v) => pathId(v, what));

/** An agent's id, or `me` for the calling agent. */
export const agentIdParam = z.string().transform((v) => (v === "me" ? v : pathId(v, "Agent")));

/** A free-text path segment (a key, a type): validated by the service. */
export const textParam = z.string().min(1);

/** `{}` answers (deletes, sign-out) and answers whose shape is open by design. */
export const okResponse = z.object({ ok: z.literal(true) }).strict();

/** What a call of a contract sends: its path parameters, query and body, as the wire carries them. */
export type CallInput<C extends AnyContract> = (C["params"] extends z.ZodType ? { params: z.input<C["params"]> } : { params?: undefined }) &
  (C["query"] extends z.ZodType ? { query?: Partial<z.input<C["query"]>> } : { query?: undefined }) &
  (C["body"] extends z.ZodType ? { body: z.input<C["body"]> } : { body?: undefined });

/** `/api/v1/agents/{agentId}/keys` + {agentId: "me"} → the concrete path. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null || v === "") throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(v));
  });
}
