/**
 * The browser's way to call `/api/v1`: JSON in and out, the session cookie included, and the API's
 * error shape `{error: {code, message, details}}` turned into one throwable `ApiClientError`.
 */

import { fillPath, type AnyContract, type CallInput, type WireResponse } from "@/lib/http/contract";
import { MemoryHqError } from "@/lib/sdk/error";
import { humanValidationMessage } from "./validation-wording";

export interface ApiIssue {
  path: string;
  message: string;
  code?: string;
}

/** The TypeScript client's error, with the console's field-level messages. */
export class ApiClientError extends MemoryHqError {
  constructor(status: number, code: string, message: string, details?: unknown) {
    super(status, code, message, details);
    this.name = "ApiClientError";
  }

  /** Field-level messages from a 422 (zod issues), keyed by the first segment of their path. */
  get fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    if (!Array.isArray(this.details)) return out;
    for (const issue of this.details as ApiIssue[]) {
      const field = String(issue?.path ?? "").split(".")[0] || "form";
      if (issue?.message && !out[field]) out[field] = humanValidationMessage(issue.message);
    }
    return out;
  }
}

/**
 * A refused form submission as a form shows it: each field's message beside that field, and the
 * banner (`form`) only for what no field of the form shows — never the same message twice.
 */
export function formErrors<F extends string>(err: unknown, fields: readonly F[]): Partial<Record<F | "form", string>> {
  if (!(err instanceof ApiClientError) || err.status !== 422) return { form: errorMessage(err) } as Partial<Record<F | "form", string>>;
  const out: Partial<Record<F | "form", string>> = {};
  const rest: string[] = [];
  for (const [field, message] of Object.entries(err.fieldErrors)) {
    if ((fields as readonly string[]).includes(field)) out[field as F] = message;
    else rest.push(field === "form" ? message : `${field}: ${message}`);
  }
  if (rest.length) out.form = rest.join("; ");
  else if (Object.keys(out).length === 0) out.form = err.message;
  return out;
}

export interface ApiFetchOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  /** query-string parameters; undefined and empty values are left out */
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** the request outlives the page (sent as it closes or reloads) */
  keepalive?: boolean;
}

const API_BASE = "/api/v1";

/** `apiFetch<T>("/agents")` → parsed JSON, or throws `ApiClientError`. Paths are relative to /api/v1. */
export async function apiFetch<T>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  const { method = options.body === undefined ? "GET" : "POST", body, query, signal, headers, keepalive } = options;
  const url = buildUrl(path, query);
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      credentials: "same-origin",
      signal,
      keepalive,
      headers: {
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    if ((err as Error)?.name === "AbortError") throw err;
    throw new ApiClientError(0, "network_error", "Could not reach the server. Check your connection and try again.");
  }

  const text = await res.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!res.ok) throw toClientError(res.status, data);
  return data as T;
}

function buildUrl(path: string, query: ApiFetchOptions["query"]): string {
  const base = path.startsWith("/api/") ? path : `${API_BASE}${path.startsWith("/") ? path : `/${path}`}`;
  if (!query) return base;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === "") continue;
    params.set(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${base}${base.includes("?") ? "&" : "?"}${qs}` : base;
}

export function toClientError(status: number, data: unknown): ApiClientError {
  const error = (data as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (error && typeof error.message === "string") {
    return new ApiClientError(status, typeof error.code === "string" ? error.code : "error", error.message, error.details);
  }
  return new ApiClientError(status, "http_error", `The server answered ${status}${status >= 500 ? "; try again in a moment" : ""}`);
}

/** A message fit to show a person, for any error a query or mutation may throw. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiClientError) {
    if (error.status === 429) return friendlyRateLimit(error.message);
    return error.message;
  }
  if (error instanceof Error && error.message) return error.message;
  return "Something went wrong";
}

export const isApiError = (error: unknown, status?: number): error is ApiClientError =>
  error instanceof ApiClientError && (status === undefined || error.status === status);

// The API says "Too many attempts; try again in 840 s"; people read minutes more easily.
function friendlyRateLimit(message: string): string {
  const m = /(\d+)\s*s\b/.exec(message);
  if (!m) return message;
  const seconds = Number(m[1]);
  const wait = seconds >= 90 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
  return `Too many attempts. Please wait ${wait} and try again.`;
}

/**
 * Calls the endpoint a contract describes; the answer is typed by the contract's response (dates as
 * ISO strings). `apiCall(api.agents.get, { params: { agentId } })`.
 */
export function apiCall<C extends AnyContract>(
  contract: C,
  input: CallInput<C>,
  options: { signal?: AbortSignal; headers?: Record<string, string>; keepalive?: boolean } = {},
): Promise<WireResponse<C>> {
  const { params, query, body } = input as { params?: Record<string, unknown>; query?: ApiFetchOptions["query"]; body?: unknown };
  return apiFetch<WireResponse<C>>(fillPath(contract.path, params), {
    method: contract.method,
    query,
    body: contract.body ? (body ?? {}) : undefined,
    signal: options.signal,
    headers: options.headers,
    keepalive: options.keepalive,
  });
}
