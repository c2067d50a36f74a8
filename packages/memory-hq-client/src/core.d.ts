/** One endpoint of the API: its method, its path with `{param}` placeholders, and whether it takes a JSON body. */
export interface Endpoint {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  body: boolean;
}

/** What a call sends: path parameters, query-string parameters and the JSON body. */
export interface CallArgs {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
}

/** The part of `fetch` the client uses (the global one by default). */
export type FetchLike = (
  input: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<{ ok: boolean; status: number; text(): Promise<string> }>;

interface BaseOptions {
  /** where the server answers, e.g. http://localhost:3000 */
  baseUrl: string;
  /** another fetch (tests, proxies); the global one by default */
  fetch?: FetchLike;
}

export type MemoryHqOptions = BaseOptions &
  (
    | {
        /** an agent key (mhq_…) or the server's ADMIN_API_KEY */
        apiKey: string;
        key?: undefined;
      }
    | {
        /** @deprecated the same as `apiKey` */
        key: string;
        apiKey?: undefined;
      }
  );

/** An answer other than 2xx from the API: its status and the `{error: {code, message, details}}` it carried. */
export declare class MemoryHqError extends Error {
  constructor(status: number, code: string, message: string, details?: unknown);
  readonly status: number;
  /** the API's error code: bad_request, unauthorized, forbidden, not_found, request_timeout, version_conflict, conflict, payload_too_large, headers_too_large, validation_failed, pii_refused, locked_constant, rate_limited, service_unavailable */
  readonly code: string;
  /** e.g. the fields a 422 refused, or `index` of a batch's first bad item */
  readonly details?: unknown;
}

/** `/api/v1/agents/{agentId}/keys` + {agentId: "me"} → the concrete path. */
export declare function fillPath(path: string, params: Record<string, unknown> | undefined): string;

/** One function calling any endpoint with the options' base URL and key; answers the parsed JSON. */
export declare function createCaller(options: MemoryHqOptions): (endpoint: Endpoint, input?: CallArgs) => Promise<unknown>;

/** The client object over a table of endpoints by domain and name (untyped; `createMemoryHq` types it). */
export declare function buildClient(endpoints: Record<string, Record<string, Endpoint>>, options: MemoryHqOptions): Record<string, unknown>;
