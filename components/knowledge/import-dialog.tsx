"use client";

import Link from "next/link";
import { useState, type ChangeEvent } from "react";
import { Select } from "@/components/ui/select";
import { Alert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { errorMessage } from "@/lib/console/api";
import { useImportKnowledge, useImportRunning } from "@/lib/console/hooks/knowledge";
import type { KnowledgeCategory, KnowledgeImportReport, KnowledgeImportResult } from "@/lib/console/knowledge-types";
import { withDefaultCategory } from "./default-category";
import { CATEGORY_OPTIONS } from "./labels";

// the API's limits (lib/knowledge/schemas.ts): 500 items and 8 MB per import
const MAX_FILES = 500;
const MAX_BYTES = 7_500_000;

const EXAMPLE = `---
title: When to escalate a refund
category: escalation
tags: [refunds, escalation]
---
Refunds are never approved by agents. File a Sev 2…`;

const STATUS: Record<KnowledgeImportResult["status"], { label: string; tone: BadgeTone }> = {
  created: { label: "Created", tone: "green" },
  ready: { label: "Ready", tone: "blue" },
  skipped: { label: "Skipped", tone: "amber" },
  refused: { label: "Refused", tone: "red" },
};

/** Upload markdown files with front matter; each file is checked at once and reported ready, skipped or refused. */
export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  // closing would hide the report of entries being stored, and would not stop them
  const importing = useImportRunning();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      dismissible={!importing}
      title="Import markdown files"
      size="lg"
      description="Each file becomes one entry. Titles that are already published are skipped, never overwritten."
    >
      <ImportBody onClose={onClose} />
    </Dialog>
  );
}

function ImportBody({ onClose }: { onClose: () => void }) {
  const [files, setFiles] = useState<{ name: string; content: string }[]>([]);
  const [category, setCategory] = useState<KnowledgeCategory | "">("");
  const [readError, setReadError] = useState<string | null>(null);
  /** files left out before sending: their NUL characters (a UTF-16 or binary file) would refuse the whole import */
  const [leftOut, setLeftOut] = useState<string[]>([]);
  const [report, setReport] = useState<KnowledgeImportReport | null>(null);
  const upload = useImportKnowledge();

  async function choose(e: ChangeEvent<HTMLInputElement>) {
    const chosen = Array.from(e.target.files ?? []);
    setReport(null);
    setReadError(null);
    setLeftOut([]);
    upload.reset();
    if (chosen.length > MAX_FILES) {
      setFiles([]);
      setReadError(`Choose at most ${MAX_FILES} files per import (you chose ${chosen.length}).`);
      return;
    }
    const total = chosen.reduce((s, f) => s + f.size, 0);
    if (total > MAX_BYTES) {
      setFiles([]);
      setReadError(`These files are ${(total / 1_000_000).toFixed(1)} MB together; import at most 7.5 MB at a time.`);
      return;
    }
    try {
      const all = await Promise.all(chosen.map(async (f) => ({ name: f.name, content: await f.text() })));
      const read = all.filter((f) => !f.content.includes("\u0000"));
      setLeftOut(all.filter((f) => f.content.includes("\u0000")).map((f) => f.name));
      setFiles(read);
      // checked at once, so the import button can count the files that are ready
      if (read.length) void send(true, read, category);
    } catch (err) {
      setFiles([]);
      setReadError(`Could not read the files: ${(err as Error).message}`);
    }
  }

  async function send(dryRun: boolean, chosen = files, fallback = category) {
    try {
      const prepared = chosen.map((f) => ({ ...f, content: withDefaultCategory(f.content, fallback) }));
      setReport(await upload.mutateAsync({ files: prepared, dryRun }));
    } catch {
      // shown from upload.error below
    }
  }

  const done = report && !report.dryRun;
  // only files the last check found ready are counted (duplicates and refusals are not imported)
  const ready = report?.dryRun ? report.summary.ready : 0;

  return (
    <div className="space-y-4">
      {!done && (
        <>
          <details className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-600">
            <summary className="cursor-pointer font-medium text-slate-700">File format</summary>
            <p className="mt-2">Front matter gives the title, category and tags; the rest is the content. Without a title, the first # heading is used.</p>
            <pre tabIndex={0} className="mt-2 overflow-x-auto rounded bg-white p-2 font-mono text-xs text-slate-700">{EXAMPLE}</pre>
            <p className="mt-2">Categories: procedure, best-practice, template, skill-doc, escalation, tool-guide.</p>
          </details>
          <label className="block text-sm font-medium text-slate-700">
            Markdown files
            <input
              type="file"
              multiple
              accept=".md,.markdown,text/markdown,text/plain"
              onChange={choose}
              disabled={upload.isPending}
              className="mt-1.5 block w-full text-sm text-slate-600 file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-2 file:text-sm file:font-medium file:text-indigo-700 hover:file:bg-indigo-100"
              data-testid="knowledge-import-files"
            />
          </label>
          <label className="block text-sm font-medium text-slate-700">
            Category for files that don&apos;t name one
            <Select
              className="mt-1.5 w-full max-w-xs"
              value={category}
              disabled={upload.isPending}
              onChange={(e) => {
                const next = e.target.value as KnowledgeCategory | "";
                setCategory(next);
                if (files.length) void send(true, files, next);
              }}
              options={[{ value: "", label: "None: refuse such files" }, ...CATEGORY_OPTIONS]}
            />
          </label>
        </>
      )}

      {readError && <Alert tone="error">{readError}</Alert>}
      {leftOut.length > 0 && (
        <Alert tone="warning" title={`Left out: ${leftOut.length === 1 ? "1 file is" : `${leftOut.length} files are`} not UTF-8 text`}>
          {leftOut.join(", ")} {leftOut.length === 1 ? "holds" : "hold"} NUL characters, as UTF-16 and binary files do. Save {leftOut.length === 1 ? "it" : "them"} as
          UTF-8 markdown and choose {leftOut.length === 1 ? "it" : "them"} again; the other files are checked without {leftOut.length === 1 ? "it" : "them"}.
        </Alert>
      )}
      {upload.isError && (
        <Alert tone="error" title="Nothing was imported">
          {errorMessage(upload.error)}
        </Alert>
      )}

      {report ? (
        <ImportReport report={report} onNavigate={onClose} />
      ) : (
        files.length > 0 &&
        upload.isPending && <p className="text-sm text-slate-600">Checking {files.length === 1 ? "1 file" : `${files.length} files`}…</p>
      )}

      {upload.isPending && !upload.variables?.dryRun && (
        <p role="status" className="text-sm text-slate-600">
          Importing {ready === 1 ? "1 file" : `${ready} files`}… this dialog stays open until the report is in.
        </p>
      )}

      <DialogFooter>
        {done ? (
          <Button onClick={onClose}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose} disabled={upload.isPending}>
              Cancel
            </Button>
            <Button variant="secondary" onClick={() => send(true)} disabled={!files.length || (upload.isPending && !upload.variables?.dryRun)} loading={upload.isPending && upload.variables?.dryRun}>
              Check again
            </Button>
            <Button onClick={() => send(false)} disabled={!ready} loading={upload.isPending && !upload.variables?.dryRun}>
              {ready ? `Import ${ready === 1 ? "1 ready file" : `${ready} ready files`}` : "Import"}
            </Button>
          </>
        )}
      </DialogFooter>
    </div>
  );
}

function ImportReport({ report, onNavigate }: { report: KnowledgeImportReport; onNavigate: () => void }) {
  const s = report.summary;
  return (
    <div data-testid="knowledge-import-report">
      <p className="text-sm font-medium text-slate-800" aria-live="polite">
        {report.dryRun
          ? `Check only: ${s.ready} ready to import, ${s.skipped} duplicate${s.skipped === 1 ? "" : "s"}, ${s.refused} refused. Nothing was written.`
          : `${s.created} created, ${s.skipped} skipped, ${s.refused} refused.`}
      </p>
      {/* it scrolls: focusable, so a keyboard can scroll it too */}
      <ul tabIndex={0} aria-label="Files and what became of them" className="mt-3 max-h-72 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200">
        {report.results.map((r) => (
          <li key={r.index} className="flex items-start gap-3 px-3 py-2 text-sm" data-testid="knowledge-import-result">
            <Badge tone={STATUS[r.status].tone} className="mt-0.5">
              {STATUS[r.status].label}
            </Badge>
            <div className="min-w-0">
              <p className="truncate font-medium text-slate-800">{r.name ?? r.title ?? `Entry ${r.index + 1}`}</p>
              {r.title && r.name && (
                <p className="truncate text-xs text-slate-500">
                  {r.status === "created" && r.id ? (
                    <Link href={`/knowledge/${r.id}`} onClick={onNavigate} className="text-indigo-600 hover:text-indigo-500">
                      {r.title}
                    </Link>
                  ) : (
                    r.title
                  )}
                </p>
              )}
              {r.reason && <p className="text-xs text-slate-600">{r.reason}</p>}
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
