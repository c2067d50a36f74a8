/**
 * One CSV cell. Every text cell is quoted (RFC 4180, quotes doubled), so a separator inside it —
 * a comma, or the semicolon spreadsheets use in many locales (`note;=cmd|…`) — never starts a new
 * cell. A cell a spreadsheet would read as a formula gets a leading ' : one that starts, after any
 * spaces or control characters, with = + - @ or their full-width forms ＝ ＋ － ＠ (which
 * spreadsheets fold to the ASCII signs), or with a tab, carriage return or line feed.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let s = String(value);
  if (FORMULA_START.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

const FORMULA_START = /^(?:[\t\r\n]|[\s\p{Cc}]*[=+\-@\uff1d\uff0b\uff0d\uff20])/u;
