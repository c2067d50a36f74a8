import { z } from "zod";
import { ApiError } from "./errors";

// What the boundary refuses before any schema, handler or database sees it: text Postgres cannot
// store (a NUL character is never valid in text or jsonb), text that is not valid Unicode (a lone
// surrogate such as "\ud800", or bytes that are not UTF-8: either would be stored as U+FFFD, so what
// is read back — and a retry's id — would no longer match what was sent) and JSON nested deep enough
// to exhaust a recursive walker (ours, zod's or Postgres' jsonb parser). All answer 422 validation_failed.

// What a refused value should have been, said plainly where zod's own words are its types': "limit:
// Invalid input: expected int, received number" becomes "limit: expected a whole number". The rest of
// zod's messages, and every message a schema gives itself, stay as they are. Global to zod, so it
// holds for every boundary that imports this module (HTTP routes and MCP tools both do).
z.config({
  customError: (issue) => {
    if (issue.code === "unrecognized_keys") return unknownKeys(issue.keys, "field");
    // text where a number belongs (a query's text coerced to a number arrives as NaN), or a fraction
    // where a whole number does; a missing value keeps zod's "received undefined" (read as "required")
    const wrong = typeof issue.input === "number" || typeof issue.input === "string";
    if (issue.code !== "invalid_type" || !wrong) return undefined;
    if (issue.expected !== "int" && issue.expected !== "number") return undefined;
    // a number schema's format ("safeint", "int32", …) says it wants a whole one before zod checks it is a number
    const format = (issue.inst as { format?: unknown } | undefined)?.format;
    const whole = issue.expected === "int" || (typeof format === "string" && format.includes("int"));
    return `expected a ${whole ? "whole " : ""}number${typeof issue.input === "string" ? ", not text in quotes" : ""}`;
  },
});

/** `unknown field "colour"`, `unknown parameters "a", "b"`: what a strict object refuses. */
export const unknownKeys = (keys: readonly string[], noun: "field" | "parameter") =>
  `unknown ${noun}${keys.length === 1 ? "" : "s"} ${keys.map((k) => JSON.stringify(k)).join(", ")}`;

/** JSON nested deeper than this is refused: no payload of the API needs more than a handful of levels. */
export const MAX_JSON_DEPTH = 64;

const NUL = "\u0000";

const refused = (path: string, message: string, code: string) =>
  new ApiError("validation_failed", `${path || "body"}: ${message}`, [{ path, message, code }]);

const nulIn = (where: string) => refused(where, "must not contain a NUL character (\\u0000)", "nul_character");
const invalidUnicodeIn = (where: string) =>
  refused(where, "must be valid Unicode: a lone surrogate (\\ud800–\\udfff without its pair) is not", "invalid_unicode");

/** A UTF-16 code unit of a surrogate pair standing alone (in `u` mode a pair is one code point, not Cs). */
const LONE_SURROGATE = /\p{Cs}/u;

/** The reason `text` cannot be stored as sent, if any. */
function unstorable(text: string): "nul" | "unicode" | null {
  if (text.includes(NUL)) return "nul";
  return LONE_SURROGATE.test(text) ? "unicode" : null;
}

const escapedKey = (key: string) => key.replaceAll(NUL, "\\u0000").replace(/\p{Cs}/gu, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

/** Refuses `text` (named `where` in the answer) when it holds a NUL character or a lone surrogate. */
function assertStorable(text: string, where: string) {
  const why = unstorable(text);
  if (why === "nul") throw nulIn(where);
  if (why === "unicode") throw invalidUnicodeIn(where);
}

/** A body's bytes as text: bytes that are not UTF-8 are refused (422), never replaced with U+FFFD. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw refused("", "is not valid UTF-8", "invalid_unicode");
  }
}

/**
 * The query string as an object, refusing NUL or a lone surrogate in any parameter's name or value.
 * (`URLSearchParams` has already decoded `%00`.) A parameter sent empty (`?status=&limit=`, as a
 * form or a URL template leaves an unset filter) is as if it were not sent.
 */
export function guardedQuery(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of params) {
    assertStorable(key, `query.${escapedKey(key)}`);
    assertStorable(value, `query.${key}`);
    if (value === "") continue;
    out[key] = value;
  }
  return out;
}

/**
 * Parses JSON text, refusing it when it nests deeper than `MAX_JSON_DEPTH` (checked on the text,
 * before parsing, in one pass) or when any key or string value holds a NUL character or a lone
 * surrogate (JSON's "\ud800" escape makes one).
 */
export function parseGuardedJson(text: string): unknown {
  assertDepth(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("bad_request", "The body is not valid JSON");
  }
  assertStorableJson(value, "");
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
function assertStorableJson(value: unknown, path: string) {
  if (typeof value === "string") {
    assertStorable(value, path);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => assertStorableJson(v, path ? `${path}.${i}` : String(i)));
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const at = path ? `${path}.${k}` : k;
      assertStorable(k, path ? `${path}.${escapedKey(k)}` : escapedKey(k));
      assertStorableJson(v, at);
    }
  }
}

/** Whether year-month-day is a day of the calendar, years 0001–9999 (February 30th and year 0000 are not). */
function isCalendarDay(year: number, month: number, day: number): boolean {
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return false;
  const last = new Date(0);
  last.setUTCFullYear(year, month, 0); // day 0 of the next month: the last of this one
  return day <= last.getUTCDate();
}

/**
 * A keyset cursor's timestamp ("2026-02-16T09:30:00.123456Z"): a real UTC instant Postgres can
 * hold, so year 99999, month 13 or 25 o'clock are refused here rather than by the database.
 */
export function isCursorTimestamp(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?Z$/.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  return isCalendarDay(year, month, day) && hour <= 23 && minute <= 59 && second <= 59;
}

/** A calendar day as YYYY-MM-DD (a daily note's, a report's), years 0001–9999: anything else is refused naming the field. */
export const apiDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD")
  .refine((d) => isCalendarDay(Number(d.slice(0, 4)), Number(d.slice(5, 7)), Number(d.slice(8, 10))), "not a day of the calendar (years 0001–9999)");

/** "timestamp|uuid", as a page's nextCursor carries it. */
export const keysetCursor = z
  .string()
  .refine((v) => {
    const [at, id, ...rest] = v.split("|");
    return rest.length === 0 && !!at && isCursorTimestamp(at) && !!id && z.uuid().safeParse(id).success;
  }, "use the nextCursor of the previous page");

/** A page's position in a listing ordered by (time, sequence number), as its nextCursor carries it. */
export interface SequencePosition {
  /** UTC, to the microsecond: "2026-02-16T09:30:00.123456Z" */
  occurredAt: string;
  seq: number;
}

export const encodeSequenceCursor = (p: SequencePosition) => Buffer.from(`${p.occurredAt}|${p.seq}`).toString("base64url");

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
 * An opaque cursor (base64url of "<UTC time to the microsecond>|<sequence number>"), decoded: one this
 * API did not give out — another time form, an impossible date, a sequence that is not a number — is
 * refused with 422 naming the parameter, never handed to the database.
 */
export const sequenceCursor = z
  .string()
  .max(200)
  .transform((v, ctx): SequencePosition => {
    const text = Buffer.from(v, "base64url").toString("utf8");
    const cut = text.lastIndexOf("|");
    const occurredAt = text.slice(0, cut);
    const seq = text.slice(cut + 1);
    if (cut < 0 || !/^\d{1,15}$/.test(seq) || !isCursorTimestamp(occurredAt)) {
      ctx.addIssue({ code: "custom", message: "use the nextCursor of the previous page" });
      return z.NEVER;
    }
    return { occurredAt, seq: Number(seq) };
  });

/** Where a page of conversations ended: the last one's latest turn, its agent and its conversation label. */
export interface ConversationPosition {
  endedAt: string;
  agentId: string;
  conversation: string;
}

export const encodeConversationCursor = (p: ConversationPosition) => Buffer.from(JSON.stringify([p.endedAt, p.agentId, p.conversation])).toString("base64url");

/** A conversations page's nextCursor (encodeConversationCursor), decoded; anything else is refused. */
export const conversationCursor = z
  .string()
  .max(400)
  .transform((v, ctx): ConversationPosition => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(v, "base64url").toString("utf8"));
    } catch {
      parsed = null;
    }
    const [endedAt, agentId, conversation] = Array.isArray(parsed) ? parsed : [];
    if (typeof endedAt !== "string" || !isCursorTimestamp(endedAt) || typeof agentId !== "string" || !z.uuid().safeParse(agentId).success || typeof conversation !== "string" || conversation.length > 200) {
      ctx.addIssue({ code: "custom", message: "use the nextCursor of the previous page" });
      return z.NEVER;
    }
    return { endedAt, agentId, conversation };
  });

// The instants the API's ISO form can carry: years 0001 to 9999 in UTC. "9999-12-31T23:59:59-14:00" is
// year 10000 once in UTC, "0001-01-01T00:30:00+01:00" year 1 BC: Postgres holds both, but neither can be
// answered as the same kind of string (JavaScript writes "+010000-…"), so neither is accepted.
const EARLIEST = startOfYear(1);
const AFTER_LATEST = startOfYear(10000);

function startOfYear(year: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, 0, 1);
  return d.getTime();
}

/**
 * Every point in time the API takes — in a body, a query or an MCP tool's input: an ISO 8601 timestamp with
 * its offset ("Z" or "+05:30"), from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z once in UTC (422
 * naming the field otherwise), kept to the millisecond and handed on in UTC ("2024-03-01T04:30:00.123Z"),
 * which is exactly what is stored and answered back.
 */
export const apiTimestamp = z.iso
  // not a timestamp at all: one message, not also the range's
  .datetime({ offset: true, abort: true, error: "expected a date and time in ISO 8601 with its offset, such as 2026-03-01T09:30:00Z" })
  .refine((v) => {
    const t = Date.parse(v);
    return t >= EARLIEST && t < AFTER_LATEST;
  }, "must fall between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z in UTC")
  .transform((v) => new Date(v).toISOString());
