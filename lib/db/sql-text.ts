// SQL text as PostgreSQL reads it: statements split at the semicolons outside quotes, comments and
// dollar-quoted bodies, and a normal form that two spellings of one statement share.

interface Segment {
  /**
   * code: SQL outside quotes; quoted: a string literal or quoted identifier (quotes included); body:
   * the text of a dollar-quoted string; comment: a comment; end: the semicolon that ends a statement
   */
  kind: "code" | "quoted" | "body" | "comment" | "end";
  text: string;
  /** where it starts and ends in the script */
  start: number;
  end: number;
}

const DOLLAR_TAG = /\$(?:[a-zA-Z_][a-zA-Z0-9_]*)?\$/y;
const WORD_CHAR = /[a-zA-Z0-9_]/;

/** Cuts a script into segments, by PostgreSQL's lexical rules. */
function scan(sql: string): Segment[] {
  const out: Segment[] = [];
  let codeStart = 0;
  const push = (kind: Segment["kind"], start: number, end: number, text = sql.slice(start, end)) => {
    if (codeStart < start) out.push({ kind: "code", text: sql.slice(codeStart, start), start: codeStart, end: start });
    out.push({ kind, text, start, end });
    codeStart = end;
  };
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (sql.startsWith("--", i)) {
      const nl = sql.indexOf("\n", i);
      push("comment", i, nl < 0 ? sql.length : nl);
      i = nl < 0 ? sql.length : nl;
    } else if (sql.startsWith("/*", i)) {
      // block comments nest in PostgreSQL
      let depth = 1;
      let j = i + 2;
      while (j < sql.length && depth > 0) {
        if (sql.startsWith("/*", j)) depth++;
        else if (sql.startsWith("*/", j)) depth--;
        else {
          j++;
          continue;
        }
        j += 2;
      }
      push("comment", i, j);
      i = j;
    } else if (c === "'" || c === '"') {
      // E'…' takes backslash escapes; any quoted text ends at a quote that is not doubled
      const escapes = c === "'" && /[eE]/.test(sql[i - 1] ?? "") && !WORD_CHAR.test(sql[i - 2] ?? " ");
      let j = i + 1;
      while (j < sql.length) {
        if (escapes && sql[j] === "\\") j += 2;
        else if (sql[j] === c && sql[j + 1] === c) j += 2;
        else if (sql[j] === c) break;
        else j++;
      }
      push("quoted", i, Math.min(j + 1, sql.length));
      i = j + 1;
    } else if (c === "$" && !WORD_CHAR.test(sql[i - 1] ?? " ")) {
      DOLLAR_TAG.lastIndex = i;
      const tag = DOLLAR_TAG.exec(sql)?.[0];
      if (!tag) {
        i++;
        continue;
      }
      const close = sql.indexOf(tag, i + tag.length);
      const stop = close < 0 ? sql.length : close;
      push("body", i, close < 0 ? sql.length : close + tag.length, sql.slice(i + tag.length, stop));
      i = close < 0 ? sql.length : close + tag.length;
    } else if (c === ";") {
      push("end", i, i + 1);
      i++;
    } else i++;
  }
  if (codeStart < sql.length) out.push({ kind: "code", text: sql.slice(codeStart), start: codeStart, end: sql.length });
  return out;
}

/** The statements of a script, each as written (from its first word, comments before it left out), without its semicolon. */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current: Segment[] = [];
  const cut = () => {
    const first = current.find((s) => s.kind !== "comment" && (s.kind !== "code" || s.text.trim()));
    const last = current.at(-1);
    if (first && last) {
      const start = first.start + (first.kind === "code" ? first.text.length - first.text.trimStart().length : 0);
      statements.push(sql.slice(start, last.end).trimEnd());
    }
    current = [];
  };
  for (const s of scan(sql)) {
    if (s.kind === "end") cut();
    else current.push(s);
  }
  cut();
  return statements;
}

/**
 * One statement in a form two spellings of it share: comments left out; outside quotes and bodies,
 * lower case with whitespace collapsed (none around brackets, commas and `=`); in a dollar-quoted
 * body (a function's source, which PostgreSQL keeps as written), each line trimmed and blank lines
 * left out, so indentation alone is no change but any other edit of a line is.
 */
export function normalizeStatement(statement: string): string {
  // a comment separates words like a space: fold it into the code around it
  const parts: { kind: Segment["kind"]; text: string }[] = [];
  for (const s of scan(statement)) {
    const kind = s.kind === "comment" ? "code" : s.kind;
    const text = s.kind === "comment" ? " " : s.text;
    const last = parts.at(-1);
    if (kind === "code" && last?.kind === "code") last.text += text;
    else parts.push({ kind, text });
  }
  return parts
    .map((s) => {
      switch (s.kind) {
        case "body":
          return `$$${s.text
            .split("\n")
            .map((l) => l.trim())
            .filter(Boolean)
            .join("\n")}$$`;
        case "code":
          return s.text
            .toLowerCase()
            .replace(/\s+/g, " ")
            .replace(/\s*([(),=[\]])\s*/g, "$1");
        case "end":
          return "";
        default:
          return s.text;
      }
    })
    .join("")
    .trim();
}

/** The statement with string literals and bodies blanked out (`''`), comments left out: its structure, to match against. */
export function codeOnly(statement: string): string {
  return scan(statement)
    .map((s) => (s.kind === "code" ? s.text : s.kind === "quoted" && s.text.startsWith('"') ? s.text : s.kind === "comment" ? " " : " '' "))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

/** The dollar-quoted bodies of a statement (a DO block's code, a function's source). */
export function bodiesOf(statement: string): string[] {
  return scan(statement)
    .filter((s) => s.kind === "body")
    .map((s) => s.text);
}
