// The document limits, shared by the API (schemas, service) and the console's live counter, so the
// counter and the 422 always agree. No imports: safe in client components.

/** The scratchpad rides in every system prompt, so it stays small. */
export const WORKING_MAX_CHARS = 2000;
/** SOUL and daily notes: generous, but bounded (the database checks the same limit). */
export const DOCUMENT_MAX_CHARS = 50_000;

/** Characters as people count them (code points), the same measure as Postgres' char_length. */
export const charCount = (s: string) => [...s].length;
