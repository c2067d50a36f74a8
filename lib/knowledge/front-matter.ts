/**
 * Reads a markdown file with front matter into the fields of a knowledge entry:
 *
 *     ---
 *     title: Escalation severity levels
 *     category: escalation
 *     tags: [escalation, severity]
 *     ---
 *     The body is the entry's content.
 *
 * Tags may also be written `tags: a, b` or as a `- item` list on the following lines. Without a
 * `title`, the first `# heading` is the title. Keys other than title, category and tags are refused
 * rather than dropped, so nothing in a file is silently lost. Validation of the values (category
 * names, lengths) is the caller's: this only parses.
 */

export const FRONT_MATTER_KEYS = ["title", "category", "tags"] as const;

export type ParsedMarkdown =
  | { ok: true; fields: { title?: string; category?: string; tags?: string[]; content: string } }
  | { ok: false; reason: string };

export function parseMarkdownEntry(text: string): ParsedMarkdown {
  const source = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  let meta: Record<string, string | string[]> = {};
  let body = source;

  if (/^---[ \t]*\n/.test(source)) {
    const lines = source.split("\n");
    const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)[ \t]*$/.test(l));
    if (end < 0) return { ok: false, reason: "the front matter is not closed (a line with --- after the fields)" };
    const parsed = parseFields(lines.slice(1, end));
    if (!parsed.ok) return parsed;
    meta = parsed.fields;
    body = lines.slice(end + 1).join("\n");
  }

  const unknown = Object.keys(meta).filter((k) => !(FRONT_MATTER_KEYS as readonly string[]).includes(k));
  if (unknown.length) {
    return {
      ok: false,
      reason: `unknown front matter field${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (allowed: ${FRONT_MATTER_KEYS.join(", ")})`,
    };
  }

  const content = body.replace(/^\n+/, "").replace(/\s+$/, "");
  const fields: { title?: string; category?: string; tags?: string[]; content: string } = { content };
  const title = asText(meta.title) ?? /^#[ \t]+(.+?)[ \t#]*$/m.exec(content)?.[1];
  if (title !== undefined) fields.title = title;
  const category = asText(meta.category);
  if (category !== undefined) fields.category = category;
  if (meta.tags !== undefined) fields.tags = asList(meta.tags);
  return { ok: true, fields };
}

function parseFields(lines: string[]): { ok: true; fields: Record<string, string | string[]> } | { ok: false; reason: string } {
  const fields: Record<string, string | string[]> = {};
  let listKey: string | null = null;
  for (const [i, raw] of lines.entries()) {
    const line = raw.trimEnd();
    if (line.trim() === "" || line.trim().startsWith("#")) continue;
    const item = /^\s+-\s*(.*)$/.exec(line) ?? (listKey ? /^-\s*(.*)$/.exec(line) : null);
    if (item && listKey) {
      (fields[listKey] as string[]).push(unquote(item[1]!.trim()));
      continue;
    }
    const m = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!m) return { ok: false, reason: `front matter line ${i + 2} is not "key: value": ${raw.trim().slice(0, 80)}` };
    const key = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (key in fields) return { ok: false, reason: `front matter field ${key} appears twice` };
    if (value === "") {
      fields[key] = [];
      listKey = key;
    } else if (value.startsWith("[")) {
      if (!value.endsWith("]")) return { ok: false, reason: `front matter field ${key}: a [list] must close on the same line` };
      fields[key] = splitList(value.slice(1, -1));
      listKey = null;
    } else {
      fields[key] = unquote(value);
      listKey = null;
    }
  }
  return { ok: true, fields };
}

function splitList(inner: string): string[] {
  const out: string[] = [];
  // a comma inside quotes is part of the value
  for (const m of inner.matchAll(/\s*("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,]*)\s*(?:,|$)/g)) {
    const v = unquote(m[1]!.trim());
    if (v) out.push(v);
    if (m.index! + m[0].length >= inner.length) break;
  }
  return out;
}

function unquote(v: string): string {
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return v.slice(1, -1).replace(/\\"/g, '"');
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  return v;
}

const asText = (v: string | string[] | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v.join(" ") : v);

const asList = (v: string | string[]) => (Array.isArray(v) ? v : splitList(v));
