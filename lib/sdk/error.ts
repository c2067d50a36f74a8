/** An answer other than 2xx from the API: the client package's error class, shared by the console. */
export { MemoryHqError } from "@/packages/memory-hq-client/src/core.js";
