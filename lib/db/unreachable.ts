/**
 * Why a database cannot be reached: a connection refused, cut or timed out (Node's and postgres.js's
 * codes), or a server shutting down, starting up or out of connections (SQLSTATE 57P01–57P03, 53300,
 * and class 08 but a protocol violation). A passing state: the caller is told to try again (503).
 */
const UNREACHABLE = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE",
  "CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECTION_ENDED", "CONNECT_TIMEOUT",
  "57P01", "57P02", "57P03", "53300",
]);

export const DATABASE_UNREACHABLE = "The database cannot be reached just now; try again shortly";

export function isDatabaseUnreachable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && (UNREACHABLE.has(code) || (code.startsWith("08") && code !== "08P01"));
}
