/**
 * Postgres' text form of a date or time (`2024-03-01 10:00:00.123456+05:30`, `0042-02-03 04:05:06+00`,
 * `0001-12-31 23:00:00+00 BC`, with the offset in whatever TimeZone the session uses, seconds included
 * for the local mean times of old dates) as a JS Date, for every year. The drivers' default, `new Date(text)`,
 * takes this form for a legacy one and reads years 0–99 as 1900–1999 or 2000–2049 ("0001-01-01" came back
 * as 2001), so a listing of old turns ran backwards. A timestamp without a zone is read as UTC; `infinity`
 * as an invalid Date, as before.
 */
const PG_TIME = /^(\d{4,})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?)?(?:([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?)?( BC)?$/;

export function parsePgTimestamp(text: string): Date {
  const m = PG_TIME.exec(text);
  if (!m) return new Date(text);
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", sign, oh = "0", om = "0", os = "0", bc] = m;
  const year = bc ? 1 - Number(y) : Number(y);
  const at = new Date(0);
  // setUTCFullYear takes years 0–99 as they are (Date.UTC would add 1900)
  at.setUTCFullYear(year, Number(mo) - 1, Number(d));
  at.setUTCHours(Number(h), Number(mi), Number(s), Number(frac.padEnd(3, "0").slice(0, 3)));
  const offsetSeconds = sign ? (sign === "-" ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60 + Number(os)) : 0;
  return new Date(at.getTime() - offsetSeconds * 1000);
}

/** Postgres' type ids of date (1082), timestamp (1114) and timestamptz (1184): the types read with `parsePgTimestamp`. */
export const PG_TIME_TYPES = [1082, 1114, 1184] as const;
