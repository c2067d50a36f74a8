/** A fact key as the API takes it: lowercase words joined by dots, dashes or underscores. */
export const FACT_KEY_PATTERN = /^[a-z0-9]+([._-][a-z0-9]+)*$/;

/**
 * A client's fact-key allow-list as typed: one key between each comma or line break ("Roof Age" is one
 * key that needs fixing, never the two keys "roof" and "age"), lowercased, each once.
 */
export function parseFactKeys(text: string): { keys: string[] } | { error: string } {
  const list = text
    .split(/[,\n]+/)
    .map((k) => k.trim().toLowerCase())
    .filter(Boolean);
  const bad = list.find((k) => !FACT_KEY_PATTERN.test(k));
  if (bad === undefined) return { keys: [...new Set(list)] };
  const fixed = bad.replace(/\s+/g, "_");
  return {
    error: `“${bad}” is not a key: use lowercase letters, digits, dots, dashes and underscores${FACT_KEY_PATTERN.test(fixed) ? ` (“${fixed}”?)` : ""}`,
  };
}
