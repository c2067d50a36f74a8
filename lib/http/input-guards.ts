import { z } from "zod";
import { ApiError } from "./errors";

// What the boundary refuses before any schema, handler or database sees it: text Postgres cannot
// store (a NUL character is never valid in text or jsonb) and JSON nested deep enough to exhaust a
// recursive walker (ours, zod's or Postgres' jsonb parser). All answer 422 validation_failed.

/** JSON nested deeper than this is refused: no payload of the API needs more than a handful of levels. */
export const MAX_JSON_DEPTH = 64;

const NUL = "\u0000";

const refused = (path: string, message: string, code: string) =>
  new ApiError("validation_failed", `${path || "body"}: ${message}`, [{ path, message, code }]);

const nulIn = (where: string) => refused(where, "must not contain a NUL character (\\u0000)", "nul_character");

/**
 * The query string as an object, refusing NUL in any parameter's name or value. (`URLSearchParams`
 * has already decoded `%00`.)
 */
export function guardedQuery(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of params) {
    if (key.includes(NUL)) throw nulIn(`query.${key.replaceAll(NUL, "\\u0000")}`);
    if (value.includes(NUL)) throw nulIn(`query.${key}`);
    out[key] = value;
  }
  return out;
}

/**
 * Parses JSON text, refusing it when it nests deeper than `MAX_JSON_DEPTH` (checked on the text,
 * before parsing, in one pass) or when any key or string value holds a NUL character.
 */
export function parseGuardedJson(text: string): unknown {
  assertDepth(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("bad_request", "The body is not valid JSON");
  }
  assertNoNul(value, "");
  return value;
}

function assertDepth(text: string) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > MAX_JSON_DEPTH) throw refused("", `nests deeper than ${MAX_JSON_DEPTH} levels`, "too_deep");
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
}

// depth is bounded by assertDepth, so this recursion is too
function assertNoNul(value: unknown, path: string) {
  if (typeof value === "string") {
    if (value.includes(NUL)) throw nulIn(path);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => assertNoNul(v, path ? `${path}.${i}` : String(i)));
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const at = path ? `${path}.${k}` : k;
      if (k.includes(NUL)) throw nulIn(at.replaceAll(NUL, "\\u0000"));
      assertNoNul(v, at);
    }
  }
}

/**
 * A keyset cursor's timestamp ("2026-02-16T09:30:00.123456Z"): a real UTC instant Postgres can
 * hold, so year 99999, month 13 or 25 o'clock are refused here rather than by the database.
 */
export function isCursorTimestamp(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?Z$/.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (year < 1 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day >= 1 && day <= daysInMonth;
}

/** "timestamp|uuid", as a page's nextCursor carries it. */
export const keysetCursor = z
  .string()
  .refine((v) => {
    const [at, id, ...rest] = v.split("|");
    return rest.length === 0 && !!at && isCursorTimestamp(at) && !!id && z.uuid().safeParse(id).success;
  }, "use the nextCursor of the previous page");

/**
 * "rank|timestamp|uuid", as a page's nextCursor carries it, for lists ordered by a group first (pending
 * before decided, open escalations by severity before resolved ones) and then by time within it.
 */
export const rankedKeysetCursor = z
  .string()
  .max(100)
  .refine((v) => parseRankedCursor(v) !== null, "use the nextCursor of the previous page");

export interface RankedCursor {
  rank: number;
  at: string;
  id: string;
}

export function parseRankedCursor(v: string): RankedCursor | null {
  const [rank, at, id, ...rest] = v.split("|");
  if (rest.length || !rank || !/^\d{1,2}$/.test(rank) || !at || !isCursorTimestamp(at) || !id || !z.uuid().safeParse(id).success) return null;
  return { rank: Number(rank), at, id };
}

/**
 * An ISO 8601 timestamp with an offset that Postgres can hold: zod's format alone lets year 0000
 * through, which timestamptz refuses (there is no year zero).
 */
export const apiTimestamp = z.iso
  .datetime({ offset: true })
  .refine((v) => !v.startsWith("0000-"), "there is no year 0000; use a real date");
