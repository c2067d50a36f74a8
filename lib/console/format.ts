/** Display helpers shared by the console pages. */

const dateTime = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
});
const dateOnly = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric" });

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "—" : dateTime.format(d);
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "—" : dateOnly.format(d);
}

const relative = new Intl.RelativeTimeFormat("en-US", { numeric: "auto" });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "3 minutes ago", "yesterday"; "just now" under a minute; `fallback` for no date. */
export function formatRelative(iso: string | null | undefined, fallback = "Never"): string {
  if (!iso) return fallback;
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return fallback;
  const seconds = Math.round((then - Date.now()) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

export const capitalize = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** "1 fact", "3 facts", "1 context assembly" — a count with its noun in the right number. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

const timeOnly = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit" });

/**
 * A time span said once: "Nov 26, 2026, 8:20 – 9:09 PM" within a day, "Nov 26, 8:20 PM – Nov 27, 2026,
 * 9:09 AM" across days (the platform's range formatting leaves out what both ends share).
 */
export function formatTimeRange(startIso: string, endIso: string): string {
  const start = new Date(startIso);
  const end = new Date(endIso);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return "—";
  if (end.getTime() <= start.getTime()) return dateTime.format(start);
  return dateTime.formatRange(start, end);
}

/** A turn's time in a thread: the time alone on the day of the turn before it, else the date too. */
export function formatTurnTime(iso: string, previousIso?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  if (previousIso && dateOnly.format(new Date(previousIso)) === dateOnly.format(d)) return timeOnly.format(d);
  return dateTime.format(d);
}
