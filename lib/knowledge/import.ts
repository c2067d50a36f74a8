import "server-only";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { assertCan } from "@/lib/auth/permissions";
import { asCaller } from "@/lib/db";
import { noteSearchWrite } from "@/lib/retrieval/search/term-stats";
import { toVectorLiteral, tryEmbed } from "@/lib/embeddings";
import type { knowledgeImportResultView } from "./contracts";
import { knowledgeEmbeddingText } from "./embedding-text";
import { parseMarkdownEntry } from "./front-matter";
import { storeImport } from "./import-staging";
import * as q from "./queries";
import { createKnowledgeBody, type CreateKnowledgeBody, type ImportKnowledgeBody } from "./schemas";

/** One item's line of the import report (`ready`: valid and new, reported by a dry run instead of `created`). */
export type ImportItemResult = z.output<typeof knowledgeImportResultView>;

interface Candidate {
  result: ImportItemResult;
  entry?: CreateKnowledgeBody & { tags: string[] };
}

/**
 * POST /knowledge/import: validates every entry and file on its own and reports each one as
 * created, skipped (a published entry, or an earlier item of this import, has the same title) or
 * refused (with the reasons). Valid items are written a few per step (bulk transactions that let
 * requests go between them: lib/db/lanes.ts), hidden from every reader until one statement
 * publishes them all, so either every item reported `created` exists or the request fails as a
 * whole — never a silent partial import, not even when the server stops midway (the janitor
 * deletes what an import given up wrote).
 */
export async function importKnowledge(caller: Caller, body: ImportKnowledgeBody) {
  assertCan(caller, "knowledge.write");
  const candidates: Candidate[] = [
    ...(body.entries ?? []).map((raw, i) => validate(raw, { index: i, source: "entry" as const })),
    ...(body.files ?? []).map((file, i) =>
      readFile(file.content, { index: (body.entries?.length ?? 0) + i, source: "file" as const, name: file.name }),
    ),
  ];

  // the first item with a title wins within the import; the rest are duplicates of it
  const firstWithTitle = new Map<string, ImportItemResult>();
  for (const c of candidates) {
    if (!c.entry) continue;
    const key = c.entry.title.trim().toLowerCase();
    const first = firstWithTitle.get(key);
    if (first) skip(c, `duplicate title: item ${first.index + 1} of this import has the same title`);
    else firstWithTitle.set(key, c.result);
  }

  const fresh = () => candidates.filter((c) => c.entry && c.result.status !== "skipped");
  const taken = await asCaller(caller, (tx) => q.takenTitles(tx, { titles: fresh().map((c) => c.entry!.title) }));
  for (const c of fresh()) {
    const existing = taken.get(c.entry!.title);
    if (existing) skip(c, "duplicate title: a published entry already has this title", existing);
  }

  const toCreate = fresh();
  if (body.dryRun) {
    for (const c of toCreate) c.result.status = "ready";
    return report(candidates, true);
  }

  const vectors = toCreate.length ? await tryEmbed(toCreate.map((c) => knowledgeEmbeddingText(c.entry!))) : null;
  if (!toCreate.length) return report(candidates, false);
  noteSearchWrite();
  const entries = toCreate.map((c, i) => ({ ...c.entry!, id: randomUUID(), embedding: vectors ? toVectorLiteral(vectors[i]!) : null }));
  await storeImport(caller, entries, (written) =>
    // the report is settled inside the publishing step, the audit entry written with it
    async (tx) => {
      for (const [i, c] of toCreate.entries()) {
        if (written.has(entries[i]!.id)) {
          c.result.status = "created";
          c.result.id = entries[i]!.id;
        } else {
          // someone published the title between the check and this write
          const existing = await q.findPublishedByTitle(tx, { title: c.entry!.title });
          skip(c, "duplicate title: a published entry already has this title", existing?.id);
        }
      }
      const created = toCreate.filter((c) => c.result.status === "created");
      if (created.length) {
        await recordAudit(tx, {
          action: "knowledge.import",
          targetType: "knowledge_entry",
          details: {
            created: created.length,
            skipped: candidates.filter((c) => c.result.status === "skipped").length,
            refused: candidates.filter((c) => c.result.status === "refused").length,
            ids: created.map((c) => c.result.id),
            embedded: vectors !== null,
          },
        });
      }
    },
  );
  return report(candidates, false);
}

/**
 * A markdown file as the importer reads it (front matter and body, see front-matter.ts), validated
 * as an entry: what `POST /knowledge/import` does with each file, and how the demo's starter
 * knowledge base is loaded.
 */
export function readKnowledgeFile(content: string): { ok: true; entry: CreateKnowledgeBody & { tags: string[] } } | { ok: false; reason: string } {
  const c = readFile(content, { index: 0, source: "file" });
  return c.entry ? { ok: true, entry: c.entry } : { ok: false, reason: c.result.reason ?? "refused" };
}

function readFile(content: string, base: Omit<ImportItemResult, "status">): Candidate {
  const parsed = parseMarkdownEntry(content);
  return parsed.ok ? validate(parsed.fields, base) : refuse(base, parsed.reason);
}

function validate(raw: unknown, base: Omit<ImportItemResult, "status">): Candidate {
  const parsed = createKnowledgeBody.safeParse(raw);
  const title = typeof (raw as { title?: unknown })?.title === "string" ? ((raw as { title: string }).title.trim() || undefined) : undefined;
  if (!parsed.success) return refuse({ ...base, title }, describeIssues(parsed.error));
  return {
    result: { ...base, title: parsed.data.title, status: "created" },
    entry: { ...parsed.data, tags: parsed.data.tags ?? [] },
  };
}

function refuse(base: Omit<ImportItemResult, "status">, reason: string): Candidate {
  return { result: { ...base, status: "refused", reason } };
}

function skip(c: Candidate, reason: string, id?: string) {
  c.result.status = "skipped";
  c.result.reason = reason;
  if (id) c.result.id = id;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const path = i.path.join(".");
      if (i.code === "unrecognized_keys") return `unknown field${i.keys.length > 1 ? "s" : ""} ${i.keys.join(", ")}`;
      if (i.code === "invalid_type" && /received undefined/.test(i.message) && path) return `${path} is required`;
      return path ? `${path}: ${i.message}` : i.message;
    })
    .join("; ");
}

function report(candidates: Candidate[], dryRun: boolean) {
  const results = candidates.map((c) => c.result);
  const count = (s: ImportItemResult["status"]) => results.filter((r) => r.status === s).length;
  return {
    dryRun,
    summary: { total: results.length, created: count("created"), ready: count("ready"), skipped: count("skipped"), refused: count("refused") },
    results,
  };
}
