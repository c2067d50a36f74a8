/**
 * The TypeScript client for agent code: every endpoint of the API as a method typed by its contract,
 * so inputs and answers are checked at compile time (answers as the wire carries them: dates are ISO
 * strings).
 *
 *   const hq = createMemoryHq({ baseUrl: "http://localhost:3000", key: process.env.MEMORY_HQ_KEY! });
 *   await hq.memories.write({ params: { agentId: "me" }, body: { tier: "core", category: "client", title: "…", confidence: 0.9 } });
 *   const { items } = await hq.retrieval.retrieve({ body: { message: "What did Pelican Dental ask for?" } });
 *
 * Errors are thrown as `MemoryHqError` with the API's `code`, `message` and `details`.
 */
import { api } from "@/lib/contracts";
import { fillPath, type AnyContract, type CallInput, type WireResponse } from "@/lib/http/contract";

import { MemoryHqError } from "./error";

export { api } from "@/lib/contracts";
export { MemoryHqError } from "./error";
export type { CallInput, WireResponse } from "@/lib/http/contract";

export interface MemoryHqOptions {
  /** where the server answers, e.g. http://localhost:3000 */
  baseUrl: string;
  /** an agent key (mhq_…) or the ADMIN_API_KEY */
  key: string;
  /** another fetch (tests, proxies); the global one by default */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

type Api = typeof api;
type Args<C extends AnyContract> = object extends CallInput<C> ? [input?: CallInput<C>] : [input: CallInput<C>];
export type Method<C extends AnyContract> = (...args: Args<C>) => Promise<WireResponse<C>>;
export type MemoryHqClient = { [D in keyof Api]: { [K in keyof Api[D]]: Api[D][K] extends AnyContract ? Method<Api[D][K]> : never } } & {
  /** calls any contract, e.g. one added after this client was built */
  call<C extends AnyContract>(contract: C, ...args: Args<C>): Promise<WireResponse<C>>;
};

export function createMemoryHq(options: MemoryHqOptions): MemoryHqClient {
  const doFetch = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  const base = options.baseUrl.replace(/\/+$/, "");

  async function call<C extends AnyContract>(contract: C, ...args: Args<C>): Promise<WireResponse<C>> {
    const { params, query, body } = (args[0] ?? {}) as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== "") search.set(k, String(v));
    const qs = search.toString();
    const sendsBody = contract.body !== undefined;
    const res = await doFetch(`${base}${fillPath(contract.path, params)}${qs ? `?${qs}` : ""}`, {
      method: contract.method,
      headers: {
        accept: "application/json",
        authorization: `Bearer ${options.key}`,
        ...(sendsBody ? { "content-type": "application/json" } : {}),
      },
      body: sendsBody ? JSON.stringify(body ?? {}) : undefined,
    });
    const text = await res.text();
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = text;
    }
    if (!res.ok) {
      const error = (data as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
      throw new MemoryHqError(res.status, error?.code ?? "http_error", error?.message ?? `The server answered ${res.status}`, error?.details);
    }
    return data as WireResponse<C>;
  }

  const client: Record<string, unknown> = { call };
  for (const [domain, contracts] of Object.entries(api)) {
    client[domain] = Object.fromEntries(
      Object.entries(contracts as Record<string, AnyContract>).map(([name, contract]) => [
        name,
        (...args: unknown[]) => call(contract, ...(args as Args<AnyContract>)),
      ]),
    );
  }
  return client as MemoryHqClient;
}
