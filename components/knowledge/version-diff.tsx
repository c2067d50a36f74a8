"use client";

import { diffLines, diffWordsWithSpace, type ChangeObject } from "diff";
import { useMemo } from "react";
import { cn } from "@/lib/console/cn";
import type { KnowledgeVersion } from "@/lib/console/knowledge-types";
import { CATEGORY_LABEL } from "./labels";

/** unchanged lines kept around each change; longer unchanged runs fold into "… n unchanged lines" */
const CONTEXT = 2;

type Block =
  | { kind: "same"; lines: string[]; folded: number; position: "first" | "middle" | "last" | "only" }
  | { kind: "change"; removed: ChangeObject<string>[] | null; added: ChangeObject<string>[] | null };

const splitLines = (text: string) => text.replace(/\n$/, "").split("\n");

/**
 * What changed between two versions of an entry: the fields first (title, category, tags,
 * status), then the content line by line, with the changed words inside changed lines marked.
 * `before` null means `after` is the first version.
 */
export function VersionDiff({ before, after }: { before: KnowledgeVersion | null; after: KnowledgeVersion }) {
  const fields = before ? fieldChanges(before, after) : [];

  return (
    <div data-testid="knowledge-diff" className="space-y-4">
      {fields.length > 0 && (
        <dl className="space-y-1.5 text-sm">
          {fields.map((f) => (
            <div key={f.label} className="flex flex-wrap items-baseline gap-2">
              <dt className="w-20 shrink-0 text-xs font-medium tracking-wide text-slate-500 uppercase">{f.label}</dt>
              <dd className="flex flex-wrap items-baseline gap-2">
                <del className="rounded bg-red-50 px-1.5 text-red-800" data-testid="diff-removed">
                  {f.from || "—"}
                </del>
                <span aria-hidden="true" className="text-slate-500">
                  →
                </span>
                <ins className="rounded bg-emerald-50 px-1.5 text-emerald-800 no-underline" data-testid="diff-added">
                  {f.to || "—"}
                </ins>
              </dd>
            </div>
          ))}
        </dl>
      )}
      <TextDiff before={before?.content ?? ""} after={after.content} showUnchanged={!before} />
    </div>
  );
}

/**
 * Two texts line by line, with the changed words inside changed lines marked: removed lines red,
 * added lines green, long unchanged runs folded. Shared by the knowledge history and the agent
 * documents' version-conflict dialog.
 */
export function TextDiff({
  before,
  after,
  showUnchanged = false,
  className,
}: {
  before: string;
  after: string;
  /** render even when nothing changed (a first version against nothing) */
  showUnchanged?: boolean;
  className?: string;
}) {
  const blocks = useMemo(() => contentBlocks(before, after), [before, after]);
  const contentChanged = blocks.some((b) => b.kind === "change");
  return (
    <>
      {!contentChanged && !showUnchanged ? (
        <p className="text-sm text-slate-500">The content is the same in both versions.</p>
      ) : (
        <div className={cn("overflow-x-auto rounded-md border border-slate-200 font-mono text-[12.5px] leading-relaxed", className)} role="group" aria-label="Content changes">
          {blocks.map((b, i) =>
            b.kind === "same" ? (
              <SameBlock key={i} block={b} />
            ) : (
              <div key={i}>
                {b.removed && (
                  <div className="border-l-4 border-red-400 bg-red-50/70 px-3 py-1 whitespace-pre-wrap text-red-900" data-testid="diff-removed">
                    <span className="sr-only">Removed: </span>
                    {b.removed.map((p, j) =>
                      p.removed ? (
                        <del key={j} className="rounded-sm bg-red-200/80">
                          {p.value}
                        </del>
                      ) : (
                        <span key={j}>{p.value}</span>
                      ),
                    )}
                  </div>
                )}
                {b.added && (
                  <div className="border-l-4 border-emerald-400 bg-emerald-50/70 px-3 py-1 whitespace-pre-wrap text-emerald-900" data-testid="diff-added">
                    <span className="sr-only">Added: </span>
                    {b.added.map((p, j) =>
                      p.added ? (
                        <ins key={j} className="rounded-sm bg-emerald-200/80 no-underline">
                          {p.value}
                        </ins>
                      ) : (
                        <span key={j}>{p.value}</span>
                      ),
                    )}
                  </div>
                )}
              </div>
            ),
          )}
        </div>
      )}
    </>
  );
}

function SameBlock({ block }: { block: Extract<Block, { kind: "same" }> }) {
  const { lines, folded, position } = block;
  const head = position === "first" ? [] : lines.slice(0, CONTEXT);
  const tail = position === "last" ? [] : lines.slice(lines.length - CONTEXT);
  if (!folded) return <div className="px-3 py-1 whitespace-pre-wrap text-slate-600">{lines.join("\n")}</div>;
  return (
    <>
      {head.length > 0 && <div className="px-3 pt-1 whitespace-pre-wrap text-slate-600">{head.join("\n")}</div>}
      <div className="bg-slate-50 px-3 py-0.5 text-xs text-slate-500 italic">
        ⋯ {folded} unchanged line{folded === 1 ? "" : "s"}
      </div>
      {tail.length > 0 && <div className="px-3 pb-1 whitespace-pre-wrap text-slate-600">{tail.join("\n")}</div>}
    </>
  );
}

// a last line with or without its line break is the same line: compared as ending in one
const endLine = (text: string) => (text === "" || text.endsWith("\n") ? text : `${text}\n`);

export function contentBlocks(before: string, after: string): Block[] {
  const parts = diffLines(endLine(before), endLine(after));
  const blocks: Block[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (!p.added && !p.removed) {
      const lines = splitLines(p.value);
      const position = parts.length === 1 ? "only" : i === 0 ? "first" : i === parts.length - 1 ? "last" : "middle";
      const keep = position === "only" ? Infinity : position === "middle" ? 2 * CONTEXT : CONTEXT;
      blocks.push({ kind: "same", lines, folded: lines.length > keep + 1 ? lines.length - keep : 0, position });
      continue;
    }
    // a removal followed by an addition is one change: mark the words that differ inside it
    const next = parts[i + 1];
    if (p.removed && next?.added) {
      const words = diffWordsWithSpace(p.value.replace(/\n$/, ""), next.value.replace(/\n$/, ""));
      blocks.push({ kind: "change", removed: words.filter((w) => !w.added), added: words.filter((w) => !w.removed) });
      i++;
    } else if (p.removed) {
      blocks.push({ kind: "change", removed: [{ value: p.value.replace(/\n$/, ""), added: false, removed: true, count: 1 }], added: null });
    } else {
      blocks.push({ kind: "change", removed: null, added: [{ value: p.value.replace(/\n$/, ""), added: true, removed: false, count: 1 }] });
    }
  }
  return blocks;
}

function fieldChanges(a: KnowledgeVersion, b: KnowledgeVersion) {
  const out: { label: string; from: string; to: string }[] = [];
  if (a.title !== b.title) out.push({ label: "Title", from: a.title, to: b.title });
  if (a.category !== b.category) out.push({ label: "Category", from: CATEGORY_LABEL[a.category] ?? a.category, to: CATEGORY_LABEL[b.category] ?? b.category });
  const tagsA = a.tags.join(", ");
  const tagsB = b.tags.join(", ");
  if (tagsA !== tagsB) out.push({ label: "Tags", from: tagsA, to: tagsB });
  if (a.status !== b.status) out.push({ label: "Status", from: a.status, to: b.status });
  return out;
}
