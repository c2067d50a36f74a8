// The functions and views a sequence of SQL scripts leaves behind, read from the text: which
// `create`, `drop`, `grant`/`revoke`, `comment on` and `alter` statements name each one. It is what
// `npm run db:diff` compares the schema files (supabase/schemas/) with, and what a unit test keeps
// equal to them.
import { bodiesOf, codeOnly, normalizeStatement, splitStatements } from "./sql-text";

export type ObjectKind = "function" | "view";

/** An object's definition as a script leaves it. */
export interface Definition {
  kind: ObjectKind;
  /** `schema.name`, lower case */
  name: string;
  /** the input argument types, normalised (`integer`, `double precision`, `vector`…); none for a view */
  args: string[];
  /** the input argument names, in order ("" where unnamed) */
  argNames: string[];
  /** how many input arguments have a default */
  defaults: number;
  /** what it returns (the `returns` clause and its out arguments), normalised */
  result: string;
  /** the `create` statement, normalised (see normalizeStatement) */
  create: string;
  /** the statement as written */
  text: string;
  /** `language sql` function or view: its body is checked against other objects when it is created */
  checkedBody: boolean;
  /** written by a DO block at run time (e.g. through `format`): its final text cannot be read from the script */
  dynamic: boolean;
  /** statements after the `create` that change it (grants, comments, `alter … set`), normalised, in order */
  about: string[];
  /** the file it came from */
  source: string;
}

interface Ref {
  kind: ObjectKind;
  name: string;
  /** input argument types; undefined: any signature (`drop function f` without a list) */
  args?: string[];
}

const NAME = String.raw`(?:"[^"]+"|[a-z_][a-z0-9_$]*)(?:\s*\.\s*(?:"[^"]+"|[a-z_][a-z0-9_$]*))?`;
const MODES = new Set(["in", "out", "inout", "variadic"]);
const TYPE_ALIASES: Record<string, string> = {
  int: "integer",
  int4: "integer",
  int8: "bigint",
  int2: "smallint",
  float: "double precision",
  float8: "double precision",
  float4: "real",
  bool: "boolean",
  timestamptz: "timestamp with time zone",
  timestamp: "timestamp without time zone",
  timetz: "time with time zone",
  time: "time without time zone",
  varchar: "character varying",
  char: "character",
  decimal: "numeric",
};
/** Types whose name is several words: an argument written with one of these has no name before it. */
const MULTIWORD_TYPE = /^(double precision|character varying|bit varying|timestamp|time|interval)\b/;

/** `schema.name` in lower case, quotes removed; an unqualified name is in `public`. */
function qualify(name: string): string {
  const parts = name.split(".").map((p) => p.trim().replace(/^"(.*)"$/, "$1"));
  return (parts.length === 1 ? ["public", parts[0]!] : parts).join(".").toLowerCase();
}

/** Splits at commas outside brackets. */
function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === "," && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

/** The text inside the brackets that open at `open`, and where they close. */
function bracketed(text: string, open: number): { inner: string; end: number } | undefined {
  if (text[open] !== "(") return undefined;
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return { inner: text.slice(open + 1, i), end: i + 1 };
  }
  return undefined;
}

function normalizeType(type: string): string {
  const t = type
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/\s*\(\s*[\d\s,]*\)/g, "") // type modifiers: vector(1536), numeric(10, 2)
    .replace(/^(public|extensions|pg_catalog)\./, "")
    .trim();
  const array = /(\[\])+$/.exec(t)?.[0] ?? "";
  const base = t.slice(0, t.length - array.length).trim();
  return (TYPE_ALIASES[base] ?? base) + array;
}

interface Argument {
  mode: string;
  name: string;
  type: string;
  hasDefault: boolean;
}

function parseArgument(text: string): Argument {
  const def = /\s+default\s+|\s*=\s*/i.exec(text);
  const head = (def ? text.slice(0, def.index) : text).trim();
  let words = head.split(/\s+/);
  let mode = "in";
  if (words.length > 1 && MODES.has(words[0]!.toLowerCase())) {
    mode = words[0]!.toLowerCase();
    words = words.slice(1);
  }
  const rest = words.join(" ");
  const named = words.length > 1 && !MULTIWORD_TYPE.test(rest.toLowerCase());
  return {
    mode,
    name: named ? words[0]!.toLowerCase() : "",
    type: normalizeType(named ? words.slice(1).join(" ") : rest),
    hasDefault: Boolean(def),
  };
}

/** The input argument types of a signature as written in `drop`/`grant`/`alter` (names and modes allowed). */
function signatureTypes(argList: string): string[] {
  return splitTopLevel(argList)
    .map(parseArgument)
    .filter((a) => a.mode !== "out")
    .map((a) => a.type);
}

/** Reads `name(args)` starting at `at` in the code-only text; returns the ref and where it ends. */
function readRef(code: string, at: number, kind: ObjectKind): { ref: Ref; end: number } | undefined {
  const m = new RegExp(NAME, "iy");
  m.lastIndex = at;
  const found = m.exec(code);
  if (!found) return undefined;
  let end = m.lastIndex;
  const ref: Ref = { kind, name: qualify(found[0]) };
  const open = /\s*\(/y;
  open.lastIndex = end;
  if (kind === "function" && open.exec(code)) {
    const args = bracketed(code, open.lastIndex - 1);
    if (args) {
      ref.args = signatureTypes(args.inner);
      end = args.end;
    }
  }
  return { ref, end };
}

/** Reads a comma-separated list of refs starting at `at`. */
function readRefs(code: string, at: number, kind: ObjectKind): Ref[] {
  const refs: Ref[] = [];
  let pos = at;
  for (;;) {
    const r = readRef(code, pos, kind);
    if (!r) return refs;
    refs.push(r.ref);
    const comma = /\s*,\s*/y;
    comma.lastIndex = r.end;
    if (!comma.exec(code)) return refs;
    pos = comma.lastIndex;
  }
}

/** The `returns …` clause of a function's head (the text after its argument list), up to its first option. */
function returnsClause(afterArgs: string): string {
  const m = /^\s*returns\s+/i.exec(afterArgs);
  if (!m) return "";
  let depth = 0;
  for (let i = m[0].length; i < afterArgs.length; i++) {
    const c = afterArgs[i];
    if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (
      depth === 0 &&
      /\s/.test(c!) &&
      /^\s+(language|as|set|security|immutable|stable|volatile|strict|called|parallel|cost|rows|leakproof|window|support|transform|external|not)\b/i.test(
        afterArgs.slice(i),
      )
    ) {
      return afterArgs.slice(m[0].length, i);
    }
  }
  return afterArgs.slice(m[0].length);
}

/** A `create function`/`create view` head in `text` (code with literals blanked out) at `at`. */
function readCreate(text: string, at: number): Omit<Definition, "create" | "text" | "dynamic" | "about" | "source"> | undefined {
  const head = /create\s+(?:or\s+replace\s+)?(?:(?:temp|temporary)\s+)?(function|procedure|view)\s+/iy;
  head.lastIndex = at;
  const m = head.exec(text);
  if (!m) return undefined;
  const kind: ObjectKind = m[1]!.toLowerCase() === "view" ? "view" : "function";
  const r = readRef(text, head.lastIndex, "view");
  if (!r) return undefined;
  if (kind === "view") {
    return { kind, name: r.ref.name, args: [], argNames: [], defaults: 0, result: "", checkedBody: true };
  }
  const open = text.indexOf("(", r.end);
  const list = open >= 0 && !text.slice(r.end, open).trim() ? bracketed(text, open) : undefined;
  const args = list ? splitTopLevel(list.inner).map(parseArgument) : [];
  const inputs = args.filter((a) => a.mode !== "out");
  const outs = args.filter((a) => a.mode === "out" || a.mode === "inout").map((a) => `${a.name} ${a.type}`);
  const after = list ? text.slice(list.end) : "";
  return {
    kind,
    name: r.ref.name,
    args: inputs.map((a) => a.type),
    argNames: inputs.map((a) => a.name),
    defaults: inputs.filter((a) => a.hasDefault).length,
    result: [normalizeStatement(returnsClause(after)), ...outs].join(" out "),
    checkedBody: /\blanguage\s+sql\b/i.test(after) && !/\bbegin\s+atomic\b/i.test(after),
  };
}

/** What one statement does to functions and views. */
export interface StatementEffect {
  creates: Definition[];
  drops: Ref[];
  /** objects whose grants, comment or settings the statement changes */
  about: Ref[];
  /** names a `grant`/`revoke` on a table-like object gives: a view's, if it is one */
  tables: string[];
}

export function statementEffect(statement: string, source: string): StatementEffect {
  const code = codeOnly(statement);
  const lower = code.toLowerCase();
  const effect: StatementEffect = { creates: [], drops: [], about: [], tables: [] };
  const created = readCreate(code, 0);
  if (created) {
    // `create` and `create or replace` leave the same object behind
    const create = normalizeStatement(statement).replace(/^create (?!or replace )/, "create or replace ");
    effect.creates.push({ ...created, create, text: statement, dynamic: false, about: [], source });
    return effect;
  }
  if (/^do\b/.test(lower)) {
    // a definition built at run time: its head is usually literal, its options or body may not be
    for (const body of bodiesOf(statement)) {
      for (const m of body.matchAll(/create\s+(?:or\s+replace\s+)?(?:function|procedure|view)\s/gi)) {
        const d = readCreate(codeOnly(body.slice(m.index)), 0);
        if (d) effect.creates.push({ ...d, create: "", text: "", dynamic: true, about: [], source });
      }
      for (const m of body.matchAll(/drop\s+(function|procedure|view)\s+(?:if\s+exists\s+)?/gi)) {
        const tail = codeOnly(body.slice(m.index + m[0].length));
        effect.drops.push(...readRefs(tail, 0, m[1]!.toLowerCase() === "view" ? "view" : "function"));
      }
    }
    return effect;
  }
  const drop = /^drop\s+(function|procedure|view)\s+(?:if\s+exists\s+)?/i.exec(code);
  if (drop) {
    effect.drops.push(...readRefs(code, drop[0].length, drop[1]!.toLowerCase() === "view" ? "view" : "function"));
    return effect;
  }
  const about = /^(?:comment\s+on|alter)\s+(function|procedure|view)\s+/i.exec(code);
  if (about) {
    effect.about.push(...readRefs(code, about[0].length, about[1]!.toLowerCase() === "view" ? "view" : "function"));
    return effect;
  }
  const grant = /^(?:grant|revoke)\s.*?\son\s+(?:(functions?|procedures?)\s+|(?:table\s+)?(?!all\s))/i.exec(code);
  if (grant) {
    const refs = readRefs(code, grant[0].length, grant[1] ? "function" : "view");
    if (grant[1]) effect.about.push(...refs);
    else effect.tables.push(...refs.map((r) => r.name));
  }
  return effect;
}

const sameArgs = (a: string[] | undefined, b: string[]) => !a || (a.length === b.length && a.every((t, i) => t === b[i]));

/**
 * The functions and views the scripts leave behind, in order of their last creation: for each, its
 * newest `create` and what later statements said about it. Several live signatures of one name
 * (overloads) are all kept.
 */
export function objectsAfter(scripts: { source: string; sql: string }[]): Definition[] {
  let live: Definition[] = [];
  for (const { source, sql } of scripts) {
    for (const statement of splitStatements(sql)) {
      const effect = statementEffect(statement, source);
      for (const d of effect.creates) {
        live = live.filter((l) => !(l.kind === d.kind && l.name === d.name && sameArgs(l.args, d.args)));
        live.push(d);
      }
      for (const r of effect.drops) live = live.filter((l) => !(l.kind === r.kind && l.name === r.name && sameArgs(r.args, l.args)));
      const normalized = normalizeStatement(statement);
      for (const r of effect.about) {
        for (const l of live) if (l.kind === r.kind && l.name === r.name && sameArgs(r.args, l.args)) l.about.push(normalized);
      }
      for (const name of effect.tables) {
        for (const l of live) if (l.kind === "view" && l.name === name) l.about.push(normalized);
      }
    }
  }
  return live;
}

/** A schema file: one object's `create` and the statements about it (grants, comment). */
export function readSchemaFile(source: string, sql: string): Definition {
  const [first, ...rest] = splitStatements(sql);
  const effect = first ? statementEffect(first, source) : undefined;
  const d = effect?.creates[0];
  if (!d || d.dynamic) throw new Error(`${source} must start with the create statement of its object`);
  for (const statement of rest) {
    const e = statementEffect(statement, source);
    const aboutIt = e.about.some((r) => r.name === d.name) || (d.kind === "view" && e.tables.includes(d.name));
    if (!aboutIt || e.creates.length || e.drops.length) {
      throw new Error(`${source}: after its create statement a schema file holds only grants, revokes, comments and alters of its object, not: ${statement.slice(0, 80)}`);
    }
    d.about.push(normalizeStatement(statement));
  }
  return d;
}

/** The signature as SQL, for a `drop function`: `mhq.f(text, integer)`. */
export function signatureSql(d: Pick<Definition, "name" | "args">): string {
  return `${d.name}(${d.args.join(", ")})`;
}
