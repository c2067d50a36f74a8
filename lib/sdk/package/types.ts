/**
 * JSON Schema (as `z.toJSONSchema` writes it) → TypeScript type text, for the client package's
 * declarations. Handles what the contracts produce: objects (closed or with an index signature),
 * arrays and tuples, enums, constants, unions, intersections, `$ref` into `$defs`; each property
 * carries its description and limits as a doc comment.
 */
type Schema = {
  $ref?: string;
  $defs?: Record<string, Schema>;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema | Schema[];
  prefixItems?: Schema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  description?: string;
  format?: string;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
};

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The limits a caller trips over, in words, for a property's doc comment. */
export function schemaNotes(s: Schema): string[] {
  const notes: string[] = [];
  if (s.description) notes.push(s.description);
  const limits: string[] = [];
  // z.int() states the safe-integer range: that says nothing a caller needs
  const bound = (n: number | undefined) => (n === undefined || Math.abs(n) >= Number.MAX_SAFE_INTEGER ? undefined : n);
  const min = bound(s.minimum);
  const max = bound(s.maximum);
  if (s.type === "integer") limits.push("integer");
  if (s.format) limits.push(s.format === "date-time" ? "ISO 8601 time" : s.format);
  if (s.minLength !== undefined && s.maxLength !== undefined) limits.push(`${s.minLength}–${s.maxLength} characters`);
  else if (s.maxLength !== undefined) limits.push(`at most ${s.maxLength} characters`);
  else if (s.minLength !== undefined && s.minLength > 0) limits.push(`at least ${s.minLength} characters`);
  if (min !== undefined && max !== undefined) limits.push(`${min}–${max}`);
  else if (min !== undefined) limits.push(`≥ ${min}`);
  else if (max !== undefined) limits.push(`≤ ${max}`);
  if (s.exclusiveMinimum !== undefined) limits.push(`> ${s.exclusiveMinimum}`);
  if (s.exclusiveMaximum !== undefined) limits.push(`< ${s.exclusiveMaximum}`);
  if (s.minItems !== undefined && s.maxItems !== undefined) limits.push(`${s.minItems}–${s.maxItems} items`);
  else if (s.maxItems !== undefined) limits.push(`at most ${s.maxItems} items`);
  else if (s.minItems !== undefined && s.minItems > 0) limits.push(`at least ${s.minItems} items`);
  if (s.default !== undefined) limits.push(`default ${JSON.stringify(s.default)}`);
  if (limits.length) notes.push(limits.join("; "));
  return notes;
}

export function docComment(lines: string[], pad: string): string {
  const text = lines.join(". ").replace(/\*\//g, "*\\/").replace(/\s+/g, " ").trim();
  return text ? `${pad}/** ${text} */\n` : "";
}

/** The TypeScript type of a JSON Schema; `pad` is the indentation of the line it starts on. */
export function schemaToTs(root: Schema, pad = ""): string {
  const defs = root.$defs ?? {};
  const seen = new Set<string>();

  function ts(s: Schema | boolean | undefined, pad: string): string {
    if (s === undefined || s === true) return "unknown";
    if (s === false) return "never";
    if (s.$ref) {
      const name = /^#\/\$defs\/(.+)$/.exec(s.$ref)?.[1];
      const def = name ? defs[name] : undefined;
      // a recursive schema: its inner occurrence stays open
      if (!name || !def || seen.has(name)) return "unknown";
      seen.add(name);
      const out = ts(def, pad);
      seen.delete(name);
      return out;
    }
    if (s.const !== undefined) return JSON.stringify(s.const);
    if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
    if (s.anyOf || s.oneOf) return union((s.anyOf ?? s.oneOf)!.map((x) => ts(x, pad)));
    if (s.allOf) return s.allOf.map((x) => `(${ts(x, pad)})`).join(" & ");
    const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
    if (types.length > 1) return union(types.map((t) => ts({ ...s, type: t }, pad)));
    switch (types[0]) {
      case "string":
        return "string";
      case "number":
      case "integer":
        return "number";
      case "boolean":
        return "boolean";
      case "null":
        return "null";
      case "array": {
        if (s.prefixItems) return `[${s.prefixItems.map((x) => ts(x, pad)).join(", ")}]`;
        if (Array.isArray(s.items)) return `[${s.items.map((x) => ts(x, pad)).join(", ")}]`;
        const item = ts(s.items, pad);
        return /^[\w"]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
      }
      case "object":
        return object(s, pad);
      default:
        return s.properties ? object(s, pad) : "unknown";
    }
  }

  function object(s: Schema, pad: string): string {
    const inner = `${pad}  `;
    const required = new Set(s.required ?? []);
    const lines: string[] = [];
    for (const [name, prop] of Object.entries(s.properties ?? {})) {
      lines.push(docComment(schemaNotes(prop), inner) + `${inner}${IDENT.test(name) ? name : JSON.stringify(name)}${required.has(name) ? "" : "?"}: ${ts(prop, inner)};\n`);
    }
    const extra = s.additionalProperties;
    if (extra !== false && (extra !== undefined || !s.properties)) {
      lines.push(`${inner}[key: string]: ${extra === undefined || extra === true ? "unknown" : ts(extra, inner)};\n`);
    }
    return lines.length ? `{\n${lines.join("")}${pad}}` : "Record<string, never>";
  }

  return ts(root, pad);
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  return unique.length === 1 ? unique[0]! : unique.map((p) => (p.includes("\n") || p.includes("&") ? `(${p})` : p)).join(" | ");
}
