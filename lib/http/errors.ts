import { DATABASE_UNREACHABLE, isDatabaseUnreachable } from "@/lib/db/unreachable";

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  version_conflict: 409,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  validation_failed: 422,
  pii_refused: 422,
  locked_constant: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The one error type of the API: thrown anywhere below a handler, answered as `{error: {...}}`. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }
}

/** 429 with the seconds until the caller may try again, answered as the Retry-After header too. */
export class RateLimitedError extends ApiError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super("rate_limited", message, { retryAfterSeconds });
  }
}

/**
 * The client closed its connection before its request body arrived whole. Nobody is left to read an
 * answer, and nothing failed on this side: it is answered (and counted in the metrics) as nginx's
 * 499 "client closed request", never as a 500, and not logged as an internal error.
 */
export class ClientClosedRequestError extends Error {
  static readonly status = 499;
  constructor(readonly cause?: unknown) {
    super("The client closed the connection before its request body arrived");
    this.name = "ClientClosedRequestError";
  }
}

export const notFound = (what = "Resource") => new ApiError("not_found", `${what} not found`);
export const forbidden = (message = "You are not allowed to do this") => new ApiError("forbidden", message);

export function errorBody(code: ErrorCode, message: string, details?: unknown) {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/** Postgres refusals that reach the handler (RLS, privileges) are permission errors, not crashes. */
/** The answer to a request the database rolled back because it collided with another. */
export const ROLLED_BACK = "The request collided with another one working on the same rows and was rolled back; nothing of it was stored. Send it again";

export function fromDatabaseError(err: unknown): ApiError | undefined {
  const e = err as { code?: string; message?: string };
  if (typeof e?.code !== "string") return undefined;
  if (isDatabaseUnreachable(e)) return new ApiError("service_unavailable", DATABASE_UNREACHABLE);
  switch (e.code) {
    case "42501": // insufficient_privilege, including "new row violates row-level security policy"
      return new ApiError("forbidden", "The database refused this operation for your role");
    case "MHQ09": // a write naming a contact that opted out (mhq.refuse_opted_out_contact)
      return new ApiError("conflict", "This contact opted out; nothing more is stored about them");
    case "MHQ10": // a batch of interactions given up or changed while it was stored in steps (mhq.publish_interaction_batch)
      return new ApiError("conflict", "The batch changed while it was being stored (turns of it were erased); nothing of it was stored");
    case "40P01": // deadlock_detected: the database rolled this transaction back to let another finish
    case "40001": // serialization_failure
      return new ApiError("service_unavailable", ROLLED_BACK);
    case "23505":
      return new ApiError("conflict", "An object with the same unique value already exists");
    case "23503":
      return new ApiError("validation_failed", "A referenced object does not exist");
    case "23514":
    case "22P02":
    case "22001":
    case "22007": // invalid_datetime_format
    case "22008": // datetime_field_overflow: a timestamp outside Postgres' range
    case "22021": // character_not_in_repertoire: NUL in text
    case "22P05": // untranslatable_character: NUL in jsonb
      return new ApiError("validation_failed", "A value is out of its allowed range or format");
    default:
      return undefined;
  }
}
