/**
 * JSON Schema (as `lib/json-schema/from-zod.ts` writes it) → TypeScript type text, for the client package's
 * declarations. Handles what the contracts produce: objects (closed or with an index signature),
 * arrays and tuples, enums, constants, unions, intersections, `$ref` into `$defs`; each property
 * carries its description and limits as a doc comment.
 */
import { limitsInWords, type JsonSchema } from "@/lib/json-schema";

type Schema = JsonSchema;

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property's doc comment: its description, then its type details and limits in the words the Docs page uses. */
export function schemaNotes(s: Schema): string[] {
  const notes: string[] = [];
  if (s.description) notes.push(s.description);
  const limits = [
    ...(s.type === "integer" ? ["integer"] : []),
    ...(s.format ? [s.format === "date-time" ? "ISO 8601 time" : s.format] : []),
    ...limitsInWords(s),
  ];
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
