import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Queryable } from "@/lib/db/types";
import { getEmbeddingProvider, toVectorLiteral } from "@/lib/embeddings";
import { knowledgeEmbeddingText } from "@/lib/knowledge/embedding-text";
import { readKnowledgeFile } from "@/lib/knowledge/import";
import type { CreateKnowledgeBody } from "@/lib/knowledge/schemas";

// The demo's starter knowledge base (the "BJS Knowledge Base"): the franchise operations manual a
// field agent like Santos queries at the `hq` trigger level, as markdown files the knowledge importer
// reads (`knowledge/<author>/<entry>.md`; a `<entry>.revised.md` beside one is a later edit by the same
// author, so the demo shows a version history and a diff). Written for the demo, but meant to be useful
// as it stands. `{{key}}` placeholders are filled from the locked constants at seed time, so the
// escalation number and booking link always read as HQ set them. Nothing here is internal strategy,
// client data or pricing: the "what stays out" list.

// read at run time from the project folder, not bundled
const DEMO_KNOWLEDGE_DIR = path.join(/* turbopackIgnore: true */ process.cwd(), "lib", "demo", "knowledge");
const REVISED = ".revised.md";

export type DemoKnowledgeEntry = CreateKnowledgeBody & {
  tags: string[];
  author: string;
  /** a later edit, so the demo shows a version history and a diff */
  revision?: { author: string; content: string };
};

/** The demo's entries, read from their files; a file the importer would refuse stops the seed, naming it. */
export function demoKnowledge(dir = DEMO_KNOWLEDGE_DIR): DemoKnowledgeEntry[] {
  const read = (file: string) => {
    const parsed = readKnowledgeFile(readFileSync(file, "utf8"));
    if (!parsed.ok) throw new Error(`Demo knowledge file ${path.relative(process.cwd(), file)}: ${parsed.reason}`);
    return parsed.entry;
  };
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((folder) => {
      const author = folder.name.charAt(0).toUpperCase() + folder.name.slice(1);
      const files = readdirSync(path.join(dir, folder.name)).filter((f) => f.endsWith(".md")).sort();
      return files
        .filter((f) => !f.endsWith(REVISED))
        .map((f) => {
          const entry = read(path.join(dir, folder.name, f));
          const revisedFile = f.replace(/\.md$/, REVISED);
          const revision = files.includes(revisedFile) ? { author, content: read(path.join(dir, folder.name, revisedFile)).content } : undefined;
          return { ...entry, author, ...(revision ? { revision } : {}) };
        });
    });
}

/** `{{key}}` → the locked constant's value (keys HQ removed stay visible, so the gap is noticed). */
export function fillConstants(text: string, constants: Map<string, string>): string {
  return text.replace(/\{\{([a-z0-9._-]+)\}\}/g, (m, key: string) => constants.get(key) ?? m);
}

/**
 * Loads the starter knowledge base (system role: no caller, authors named explicitly). Embeddings
 * come from the local embedder; with a remote provider configured the rows are left for the
 * backfill, so a first start never waits on a network call. Entries whose title is already
 * published are left alone.
 */
export async function seedKnowledgeDemo(tx: Queryable): Promise<number> {
  const constants = new Map(
    (await tx.query<{ key: string; value: string }>("select key, value from locked_constants")).map((c) => [c.key, c.value]),
  );
  const entries = demoKnowledge().map((e) => ({
    ...e,
    content: fillConstants(e.content, constants),
    revision: e.revision ? { ...e.revision, content: fillConstants(e.revision.content, constants) } : undefined,
  }));
  const provider = getEmbeddingProvider();
  const embed = async (texts: string[]) =>
    provider.name === "local" ? (await provider.embed(texts)).map(toVectorLiteral) : texts.map(() => null);
  const vectors = await embed(entries.map((e) => knowledgeEmbeddingText(e)));
  const revised = await embed(entries.map((e) => (e.revision ? knowledgeEmbeddingText({ title: e.title, content: e.revision.content }) : "")));

  let created = 0;
  for (const [i, e] of entries.entries()) {
    const [row] = await tx.query<{ id: string }>(
      `insert into knowledge_entries (title, content, category, tags, created_by, updated_by, embedding)
       values ($1, $2, $3, $4::text[], $5, $5, $6::vector)
       on conflict (lower(btrim(title))) where status = 'published' do nothing
       returning id`,
      [e.title, e.content, e.category, e.tags, e.author, vectors[i]],
    );
    if (!row) continue;
    created++;
    if (e.revision) {
      // the trigger keeps version 1 in the history and makes this version 2
      await tx.query("update knowledge_entries set content = $2, updated_by = $3, embedding = $4::vector where id = $1", [
        row.id,
        e.revision.content,
        e.revision.author,
        revised[i],
      ]);
    }
  }
  return created;
}
