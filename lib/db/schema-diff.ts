// The schema files (supabase/schemas/, the desired state of every function and view) against what
// the migrations leave behind: which objects a new migration must carry, and that migration's text.
// `npm run db:diff -- <name>` writes it; a unit test requires that nothing is left to write.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { MIGRATIONS_DIR } from "./migrate";
import { type Definition, objectsAfter, readSchemaFile, signatureSql } from "./sql-objects";

export const SCHEMAS_DIR = path.join(path.dirname(MIGRATIONS_DIR), "schemas");
/** Schema files are read in this order, by file name within a folder: views come after the functions they may use. */
export const SCHEMA_FOLDERS = ["functions", "views"] as const;
const SCHEMA_NAME = /^[a-z0-9_]+\.[a-z0-9_]+\.sql$/;

export interface SchemaFile {
  /** relative to the project, e.g. `supabase/schemas/functions/public.search_memories.sql` */
  path: string;
  text: string;
  definition: Definition;
}

export async function readSchemaFiles(dir = SCHEMAS_DIR): Promise<SchemaFile[]> {
  const out: SchemaFile[] = [];
  for (const folder of SCHEMA_FOLDERS) {
    let names: string[];
    try {
      names = (await readdir(path.join(dir, folder))).filter((f) => f.endsWith(".sql")).sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw err;
    }
    for (const name of names) {
      const rel = path.relative(process.cwd(), path.join(dir, folder, name));
      if (!SCHEMA_NAME.test(name)) throw new Error(`Schema file name must be <schema>.<object>.sql: ${rel}`);
      const text = await readFile(path.join(dir, folder, name), "utf8");
      const definition = readSchemaFile(rel, text);
      const expected = name.replace(/\.sql$/, "");
      if (definition.name !== expected || definition.kind !== (folder === "views" ? "view" : "function")) {
        throw new Error(`${rel} defines ${definition.kind} ${definition.name}; it must define the ${folder.slice(0, -1)} ${expected}`);
      }
      out.push({ path: rel, text, definition });
    }
  }
  return out;
}

export async function readMigrationScripts(dir = MIGRATIONS_DIR): Promise<{ source: string; sql: string }[]> {
  const names = (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
  return Promise.all(names.map(async (name) => ({ source: name, sql: await readFile(path.join(dir, name), "utf8") })));
}

export interface Change {
  name: string;
  kind: Definition["kind"];
  /** new: no migration defines it; changed; removed: no schema file has it any more; same: written only because all were asked for */
  status: "new" | "changed" | "removed" | "same";
  /** statements that go before the new definition (drops of old signatures) */
  drops: string[];
  /** the schema file to write (absent for a removal) */
  file?: SchemaFile;
  /** what the generator could not decide, for the migration's header */
  notes: string[];
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * What a migration must carry so that the migrations leave every object as its schema file defines
 * it. `all`: every schema file's object, changed or not (to bring a database whose functions came
 * from somewhere else than the migrations to exactly these definitions).
 */
export function diffSchemas(migrations: { source: string; sql: string }[], files: SchemaFile[], opts: { all?: boolean } = {}): Change[] {
  const live = objectsAfter(migrations);
  const changes: Change[] = [];
  for (const file of files) {
    const want = file.definition;
    const have = live.filter((l) => l.kind === want.kind && l.name === want.name);
    // the newest of its definitions in the migrations, and any other signature still there
    const newest = have.at(-1);
    const drops: string[] = [];
    const notes: string[] = [];
    for (const old of have) {
      if (old.kind === "function" && !same(old.args, want.args)) drops.push(`drop function if exists ${signatureSql(old)};`);
    }
    if (!newest) {
      changes.push({ name: want.name, kind: want.kind, status: "new", drops, file, notes });
      continue;
    }
    const identical = !newest.dynamic && newest.create === want.create && same(newest.about, want.about);
    if (identical && !drops.length && !opts.all) continue;
    if (newest.dynamic) {
      notes.push(
        `${want.name}: its newest definition (${newest.source}) is built at run time by a DO block, so it could not be compared; it is written again in full` +
          (want.kind === "function" ? ` (if what it returns differs from that definition, add \`drop function ${signatureSql(want)};\` before it by hand).` : "."),
      );
    }
    if (want.kind === "function" && same(newest.args, want.args)) {
      // create or replace cannot rename an argument (naming an unnamed one is allowed), drop a default or change what the function returns
      const renamed = newest.argNames.some((n, i) => n && n !== want.argNames[i]);
      const lostDefault = want.defaults < newest.defaults;
      const newResult = !newest.dynamic && newest.result !== want.result;
      if (renamed || lostDefault || newResult) {
        drops.push(`drop function if exists ${signatureSql(want)};`);
        notes.push(
          `${want.name}: ${[renamed && "an argument was renamed", lostDefault && "a default was removed", newResult && "what it returns changed"].filter(Boolean).join(", ")}, ` +
            "so it is dropped and created again. A trigger, policy, view or column default that uses it stops the drop: drop and create those in this migration too (by hand).",
        );
      }
    }
    if (want.kind === "view") {
      notes.push(`${want.name}: create or replace view keeps the existing columns; if one was removed, renamed or retyped, add \`drop view ${want.name};\` before it by hand.`);
    }
    changes.push({ name: want.name, kind: want.kind, status: identical && !drops.length ? "same" : "changed", drops, file, notes });
  }
  for (const old of live) {
    if (files.some((f) => f.definition.kind === old.kind && f.definition.name === old.name)) continue;
    changes.push({
      name: old.name,
      kind: old.kind,
      status: "removed",
      drops: [old.kind === "view" ? `drop view if exists ${old.name};` : `drop function if exists ${signatureSql(old)};`],
      notes: [`${old.name}: no schema file defines it any more, so it is dropped; anything that still uses it stops the drop.`],
    });
  }
  return changes;
}

/**
 * Orders the definitions so that a `language sql` function or a view comes after every object its
 * text names (PostgreSQL checks those bodies when they are created; PL/pgSQL bodies are checked only
 * for syntax). Otherwise functions before views, by name.
 */
function creationOrder(changes: Change[]): Change[] {
  const withFile = changes.filter((c) => c.file);
  const byName = new Map(withFile.map((c) => [c.name, c]));
  const done = new Set<string>();
  const out: Change[] = [];
  const visit = (c: Change, path: Set<string>) => {
    if (done.has(c.name) || path.has(c.name)) return;
    if (c.file!.definition.checkedBody) {
      path.add(c.name);
      for (const other of byName.values()) {
        const short = other.name.startsWith("public.") ? other.name.slice("public.".length) : other.name;
        if (other !== c && new RegExp(`\\b${short.replace(".", "\\.")}\\s*\\(|\\b${short.replace(".", "\\.")}\\b`, "i").test(c.file!.text)) {
          visit(other, path);
        }
      }
      path.delete(c.name);
    }
    done.add(c.name);
    out.push(c);
  };
  const sorted = [...withFile].sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === "function" ? -1 : 1));
  for (const c of sorted) visit(c, new Set());
  return out;
}

/** `-- ` comment lines of at most 110 characters. */
function comment(text: string, indent = ""): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + word.length + 1 > 106 - indent.length) {
      lines.push(line);
      line = indent;
    } else if (line && line !== indent) line += " ";
    line += word;
  }
  if (line.trim()) lines.push(line);
  return lines.map((l, i) => `-- ${i === 0 ? l : l.startsWith(indent) ? l : indent + l}`);
}

/** The migration that carries the changes. */
export function renderMigration(changes: Change[], command: string): string {
  const notes = changes.flatMap((c) => c.notes);
  const listed = (status: Change["status"]) => changes.filter((c) => c.status === status).map((c) => c.name);
  const header = [
    ...comment(
      `Written by \`${command}\` from supabase/schemas/: each function and view below is its schema file as it stands, in full. ` +
        "To change one, change its schema file and generate a new migration; never edit this one.",
    ),
    ...(
      [
        ["New", listed("new")],
        ["Changed", listed("changed")],
        ["Removed", listed("removed")],
        ["Unchanged, written again (--all)", listed("same")],
      ] as const
    )
      .filter(([, names]) => names.length)
      .flatMap(([label, names]) => comment(`${label}: ${names.join(", ")}.`, "  ")),
    ...(notes.length ? ["--", "-- Could not be decided from the text alone (check these by hand):", ...notes.flatMap((n) => comment(`- ${n}`, "  "))] : []),
  ];
  const body: string[] = [];
  const ordered = creationOrder(changes);
  if (ordered.some((c) => /\bhnsw\./i.test(c.file!.text))) {
    body.push(
      [
        "-- pgvector's settings (hnsw.*) exist in a session only once its library is loaded, and until then only a",
        "-- superuser may put one on a function: using the type loads the library.",
        "do $$ begin perform '[1]'::vector; end $$;",
      ].join("\n"),
    );
  }
  const drops = [...new Set(changes.flatMap((c) => c.drops))];
  if (drops.length) body.push(drops.join("\n"));
  for (const c of ordered) body.push(`-- ${c.file!.path}\n${c.file!.text.trim()}`);
  return `${header.join("\n")}\n\n${body.join("\n\n")}\n`;
}
