import type { Api, Endpoints } from "./api.js";
import type { CallArgs, Endpoint, MemoryHqOptions } from "./core.js";

export { MemoryHqError } from "./core.js";
export type { CallArgs, Endpoint, FetchLike, MemoryHqOptions } from "./core.js";
export type { Api, Endpoints } from "./api.js";

/** The JSON body an endpoint takes, e.g. `Body<"memories.write">`. */
export type Body<N extends keyof Endpoints> = Endpoints[N]["body"];
/** The JSON an endpoint answers with, e.g. `Response<"retrieval.retrieve">`. */
export type Response<N extends keyof Endpoints> = Endpoints[N]["response"];

/**
 * Every endpoint as `client.<domain>.<name>({ params, query, body })`, typed by the server's contracts,
 * and shortcuts for what an agent does most (all for the calling agent, `me`).
 */
export type MemoryHqClient = Api & {
  /** The agent's start-of-session context: soul, scratchpad, today's note, pending items, recent memories. */
  boot(): Promise<Response<"memories.boot">>;
  /** Writes a memory for the calling agent (`memories.write` with agentId `me`). */
  writeMemory(body: Body<"memories.write">): Promise<Response<"memories.write">>;
  /** Searches what the agent may read for a message (`retrieval.retrieve`). */
  retrieve(body: Body<"retrieval.retrieve">): Promise<Response<"retrieval.retrieve">>;
  /** Records one turn of a conversation (`memories.createInteraction`). */
  logInteraction(body: Body<"memories.createInteraction">): Promise<Response<"memories.createInteraction">>;
  /** Records a transcript in one all-or-nothing call, 1–500 turns (`memories.createInteractionBatch`). */
  logConversation(interactions: Body<"memories.createInteractionBatch">["interactions"]): Promise<Response<"memories.createInteractionBatch">>;
  /** Calls any endpoint, e.g. one this package does not know yet. */
  call<R = unknown>(endpoint: Endpoint, input?: CallArgs): Promise<R>;
};

/** The endpoint table the client is built from, by domain and name. */
export declare const endpoints: { [D in keyof Api]: { [K in keyof Api[D]]: Endpoint } };

/** A client for the server at `baseUrl`, calling as the agent (or admin) whose key is `apiKey`. */
export declare function createMemoryHq(options: MemoryHqOptions): MemoryHqClient;
