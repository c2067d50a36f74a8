/**
 * The TypeScript client inside this repository (tests, benchmarks, scripts): the client package's
 * runtime (`packages/memory-hq-client`, what `GET /downloads/memory-hq-client.tgz` hands out) typed directly by
 * the zod contracts, so inputs and answers are checked at compile time (answers as the wire carries
 * them: dates are ISO strings). Code outside the repository installs the package instead.
 *
 *   const hq = createMemoryHq({ baseUrl: "http://localhost:3000", apiKey: process.env.MEMORY_HQ_KEY! });
 *   await hq.memories.write({ params: { agentId: "me" }, body: { tier: "core", category: "client", title: "…", confidence: 0.9 } });
 *   const { items } = await hq.retrieval.retrieve({ body: { message: "When does Sunrise Plumbing want visits?" } });
 *
 * Errors are thrown as `MemoryHqError` with the API's `code`, `message` and `details`.
 */
import { api } from "@/lib/contracts";
import type { AnyContract, CallInput, WireResponse } from "@/lib/http/contract";
import { buildClient, type Endpoint, type FetchLike } from "@/packages/memory-hq-client/src/core.js";

export { api } from "@/lib/contracts";
export { MemoryHqError } from "./error";
export type { CallInput, WireResponse } from "@/lib/http/contract";

export interface MemoryHqOptions {
  /** where the server answers, e.g. http://localhost:3000 */
  baseUrl: string;
  /** an agent key (mhq_…) or the ADMIN_API_KEY */
  apiKey?: string;
  /** the same as `apiKey` */
  key?: string;
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

const endpoint = (c: AnyContract): Endpoint => ({ method: c.method, path: c.path, body: c.body !== undefined });

export function createMemoryHq(options: MemoryHqOptions): MemoryHqClient {
  const endpoints = Object.fromEntries(
    Object.entries(api).map(([domain, contracts]) => [
      domain,
      Object.fromEntries(Object.entries(contracts as Record<string, AnyContract>).map(([name, c]) => [name, endpoint(c)])),
    ]),
  );
  const apiKey = options.apiKey ?? options.key ?? "";
  const client = buildClient(endpoints, { baseUrl: options.baseUrl, apiKey, fetch: options.fetch as FetchLike | undefined });
  const call = client.call as (e: Endpoint, input?: unknown) => Promise<unknown>;
  return { ...client, call: (contract: AnyContract, input?: unknown) => call(endpoint(contract), input) } as unknown as MemoryHqClient;
}
