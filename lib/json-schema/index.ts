// JSON Schema as the contracts' zod schemas produce it (`lib/json-schema/from-zod.ts`), and its limits
// put into words: one type and one wording for every reader — the Docs page's field rows, the client
// package's doc comments. Pure (no server code), so the browser can use it.

export type JsonSchema = {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  description?: string;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
};

const count = (n: number, unit: string) => `${n.toLocaleString("en-US")} ${unit}${n === 1 ? "" : "s"}`;

/** "1–200 characters", "at most 10 items", "at least 1 item"; nothing for a lower bound of 0. */
function sizeRange(min: number | undefined, max: number | undefined, unit: string): string | undefined {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${count(max, unit)}` : `${min}–${count(max, unit)}`;
  if (max !== undefined) return `at most ${count(max, unit)}`;
  if (min !== undefined && min > 0) return `at least ${count(min, unit)}`;
  return undefined;
}

// z.int() states the safe-integer range (±(2^53 − 1)): that says nothing a caller needs
const stated = (n: number | undefined) => (n === undefined || Math.abs(n) >= Number.MAX_SAFE_INTEGER ? undefined : n);

/** "0.4–1", "at least 1", "more than 0", "more than 0 and at most 1": exclusive bounds said as such. */
function valueRange(s: JsonSchema): string | undefined {
  const min = stated(s.minimum);
  const max = stated(s.maximum);
  const above = stated(s.exclusiveMinimum);
  const below = stated(s.exclusiveMaximum);
  if (min !== undefined && max !== undefined) return `${min}–${max}`;
  const low = min !== undefined ? `at least ${min}` : above !== undefined ? `more than ${above}` : undefined;
  const high = max !== undefined ? `at most ${max}` : below !== undefined ? `less than ${below}` : undefined;
  return low && high ? `${low} and ${high}` : (low ?? high);
}

/** The variants of a union, without the `null` one (reported as "or null"). */
export function variants(s: JsonSchema): { list: JsonSchema[]; nullable: boolean } {
  const list = s.anyOf ?? s.oneOf;
  if (!list) {
    if (Array.isArray(s.type) && s.type.includes("null")) return { list: [{ ...s, type: s.type.filter((t) => t !== "null") }], nullable: true };
    return { list: [s], nullable: false };
  }
  return { list: list.filter((v) => v.type !== "null"), nullable: list.some((v) => v.type === "null") };
}

/** The limits a caller trips over, in words: lengths, ranges, sizes, an array's item limits, the pattern, the default. */
export function limitsInWords(s: JsonSchema): string[] {
  const out: (string | undefined)[] = [];
  for (const v of variants(s).list) {
    out.push(sizeRange(v.minLength, v.maxLength, "character"));
    out.push(valueRange(v));
    out.push(sizeRange(v.minItems, v.maxItems, "item"));
    if (v.items && !Array.isArray(v.items)) out.push(...limitsInWords(v.items).map((l) => `each ${l}`));
    if (v.pattern) out.push(`matches ${v.pattern}`);
  }
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return [...new Set(out.filter((x): x is string => Boolean(x)))];
}
