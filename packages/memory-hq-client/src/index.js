// memory-hq-client: the TypeScript/JavaScript client of a Memory HQ server. See README.md.
import { buildClient } from "./core.js";
import { endpoints } from "./endpoints.js";

export { MemoryHqError } from "./core.js";
export { endpoints };

/** A client for the server at `baseUrl`, calling as the agent (or admin) whose key is `apiKey`. */
export function createMemoryHq(options) {
  return buildClient(endpoints, options);
}
