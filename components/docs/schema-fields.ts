// Turns the OpenAPI document's JSON Schemas into rows a person reads: one per field, with its type,
// allowed values, limits and description. Pure, so the Docs page and a unit test share it.

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  description?: string;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
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
  additionalProperties?: boolean | JsonSchema;
};

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

/** The variants of a union, without the `null` one (reported as "or null"). */
function variants(s: JsonSchema): { list: JsonSchema[]; nullable: boolean } {
  const list = s.anyOf ?? s.oneOf;
  if (!list) {
    if (Array.isArray(s.type) && s.type.includes("null")) return { list: [{ ...s, type: s.type.filter((t) => t !== "null") }], nullable: true };
    return { list: [s], nullable: false };
  }
  return { list: list.filter((v) => v.type !== "null"), nullable: list.some((v) => v.type === "null") };
}

function typeName(s: JsonSchema): string {
  if (s.$ref) return refName(s.$ref);
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return "enum";
  const { list, nullable } = variants(s);
  if (list.length !== 1 || list[0] !== s) return list.map(typeName).join(" | ") + (nullable ? " | null" : "");
  const t = Array.isArray(s.type) ? s.type.join(" | ") : s.type;
  if (t === "array") return `${s.items ? typeName(s.items) : "any"}[]`;
  if (t === "string" && s.format) return `string (${s.format})`;
  return t ?? "any";
}

const count = (n: number, unit: string) => `${n.toLocaleString("en-US")} ${unit}${n === 1 ? "" : "s"}`;

function range(min: number | undefined, max: number | undefined, unit?: string): string | undefined {
  const u = (n: number) => (unit ? count(n, unit) : String(n));
  if (min !== undefined && max !== undefined) return unit ? `${min}–${u(max)}` : `${min}–${max}`;
  if (max !== undefined) return `at most ${u(max)}`;
  if (min !== undefined && min > 0) return `at least ${u(min)}`;
  return undefined;
}

function limitsOf(s: JsonSchema): string[] {
  const out: (string | undefined)[] = [];
  for (const v of variants(s).list) {
    out.push(range(v.minLength, v.maxLength, "character"));
    out.push(range(v.minimum ?? v.exclusiveMinimum, v.maximum ?? v.exclusiveMaximum));
    out.push(range(v.minItems, v.maxItems, "item"));
    if (v.items) out.push(...limitsOf(v.items).map((l) => `each ${l}`));
    if (v.pattern) out.push(`matches ${v.pattern}`);
  }
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return [...new Set(out.filter((x): x is string => Boolean(x)))];
}

function valuesOf(s: JsonSchema): string[] | undefined {
  for (const v of variants(s).list) {
    if (v.enum) return v.enum.map(String);
    if (v.const !== undefined) return [String(v.const)];
    if (v.items?.enum) return v.items.enum.map(String);
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
    const ref = inner.$ref ?? (inner.type === "array" ? inner.items?.$ref : undefined);
    rows.push({
      name: prefix + name,
      type: typeName(raw),
      required: s.required?.includes(name) ?? false,
      values: valuesOf(raw),
      limits: limitsOf(raw),
      description: raw.description ?? inner.description,
      ...(ref ? { ref: refName(ref) } : {}),
    });
    if (depth > 0 && !ref) {
      if (inner.properties) rows.push(...fieldsOf(inner, components, `${prefix}${name}.`, depth - 1));
      else if (inner.type === "array" && inner.items?.properties) rows.push(...fieldsOf(inner.items, components, `${prefix}${name}[].`, depth - 1));
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
