import "server-only";

// Keyset paging: a page ends at its last row, and the next starts after that row's sort key. Each
// list fetches one row more than it shows, so a page knows whether another follows without an
// empty last page.

/** The SQL expression of a row's cursor time, microseconds kept (a cursor never skips a row of the same millisecond). */
export const cursorTime = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The rows of a page (at most `limit`) and the cursor of the next page, from `limit + 1` rows fetched. */
export function keysetPage<T extends { cursor: string }>(rows: T[], limit: number): { rows: Omit<T, "cursor">[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? page[page.length - 1]!.cursor : null;
  return { rows: page.map(({ cursor: _cursor, ...row }) => row), nextCursor };
}
