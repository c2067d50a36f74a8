/** An answer other than 2xx from the API: its status and the `{error: {code, message, details}}` it carried. */
export class MemoryHqError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "MemoryHqError";
  }
}
