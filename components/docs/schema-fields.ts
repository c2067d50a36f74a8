// Turns the OpenAPI document's JSON Schemas into rows a person reads: one per field, with its type,
// allowed values, limits and description. Pure, so the Docs page and a unit test share it.

import { limitsInWords, variants, type JsonSchema } from "@/lib/json-schema";

export type { JsonSchema };

export interface FieldRow {
  /** dotted path: `decisionContext.reasoning`, `interactions[].channel` */
  name: string;
  type: string;
  required: boolean;
  /** allowed values of an enum, or the one value of a constant */
  values?: string[];
  /** "1–200 characters", "0.4–1", "at most 30 items", "default 10" */
  limits: string[];
  description?: string;
  /** the named component the field's value is (`Memory`), listed separately */
  ref?: string;
}

const refName = (ref: string) => ref.split("/").pop() ?? ref;

export function resolve(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  return schema.$ref ? { ...(components[refName(schema.$ref)] ?? {}), description: schema.description ?? components[refName(schema.$ref)]?.description } : schema;
}

function typeName(s: JsonSchema): string {
  if (s.$ref) return refName(s.$ref);
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return "enum";
  const { list, nullable } = variants(s);
  if (list.length !== 1 || list[0] !== s) return list.map(typeName).join(" | ") + (nullable ? " | null" : "");
  const t = Array.isArray(s.type) ? s.type.join(" | ") : s.type;
  if (t === "array") return `${s.items && !Array.isArray(s.items) ? typeName(s.items) : "any"}[]`;
  if (t === "string" && s.format) return `string (${s.format})`;
  return t ?? "any";
}

function valuesOf(s: JsonSchema): string[] | undefined {
  for (const v of variants(s).list) {
    if (v.enum) return v.enum.map(String);
    if (v.const !== undefined) return [String(v.const)];
    if (v.items && !Array.isArray(v.items) && v.items.enum) return v.items.enum.map(String);
  }
  return undefined;
}

/**
 * The fields of an object schema, nested objects spelled out as dotted names (up to `depth` levels);
 * a named component stays a reference (`ref`), listed once on its own.
 */
export function fieldsOf(schema: JsonSchema, components: Record<string, JsonSchema>, prefix = "", depth = 2): FieldRow[] {
  const s = resolve(schema, components);
  const rows: FieldRow[] = [];
  for (const [name, raw] of Object.entries(s.properties ?? {})) {
    const { list } = variants(raw);
    const inner = list.length === 1 ? list[0]! : raw;
    const item = inner.type === "array" && !Array.isArray(inner.items) ? inner.items : undefined;
    const ref = inner.$ref ?? item?.$ref;
    rows.push({
      name: prefix + name,
      type: typeName(raw),
      required: s.required?.includes(name) ?? false,
      values: valuesOf(raw),
      limits: limitsInWords(raw),
      description: raw.description ?? inner.description,
      ...(ref ? { ref: refName(ref) } : {}),
    });
    if (depth > 0 && !ref) {
      if (inner.properties) rows.push(...fieldsOf(inner, components, `${prefix}${name}.`, depth - 1));
      else if (item?.properties) rows.push(...fieldsOf(item, components, `${prefix}${name}[].`, depth - 1));
    }
  }
  return rows;
}

/** Every named component a schema refers to, directly or through the components it names. */
export function referencedComponents(schema: unknown, components: Record<string, JsonSchema>, seen = new Set<string>()): string[] {
  const visit = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k === "$ref" && typeof x === "string") {
          const name = refName(x);
          if (!seen.has(name)) {
            seen.add(name);
            visit(components[name]);
          }
        } else visit(x);
      }
    }
  };
  visit(schema);
  return [...seen];
}
