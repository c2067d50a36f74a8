"use client";

import { useState, type KeyboardEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardFooter, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage, isApiError } from "@/lib/console/api";
import { cn } from "@/lib/console/cn";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import { useAgentDocument, useSaveDocument } from "@/lib/console/hooks/memory";
import type { AgentDocument, DocumentConflictDetails, DocumentType } from "@/lib/console/memory-types";
import { charCount } from "@/lib/documents/limits";
import { Markdown } from "./markdown";
import { mergeText } from "./merge-text";
import { useDocumentDraft } from "./use-document-draft";
import { VersionConflictDialog } from "./version-conflict-dialog";

export interface DocumentEditorProps {
  agentId: string;
  type: DocumentType;
  /** the day of a daily note */
  date?: string;
  title: string;
  description: string;
  /** HQ admins edit; everyone else reads */
  canEdit: boolean;
  /** a hard limit, shown as a live counter (the scratchpad's 2000) */
  maxChars?: number;
  placeholder?: string;
}

/**
 * One agent document (SOUL, scratchpad, a daily note) with optimistic concurrency: a save sends the
 * version the edit started from, and a 409 opens a dialog showing what differs, where merging both
 * edits is the default. Unsaved text is kept as a draft until it is saved or discarded.
 */
export function DocumentEditor({ agentId, type, date, title, description, canEdit, maxChars, placeholder }: DocumentEditorProps) {
  const doc = useAgentDocument(agentId, type, date);
  const save = useSaveDocument(agentId, type);
  // null while untouched: the editor then follows the server's content
  const [draft, setDraft] = useDocumentDraft(`${agentId}.${type}${date ? `.${date}` : ""}`, title);
  const [conflict, setConflict] = useState<AgentDocument | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ tone: "info" | "warning"; text: string } | null>(null);
  const [justSaved, setJustSaved] = useState(false);
  const [preview, setPreview] = useState(false);

  if (doc.isPending) {
    return (
      <Card>
        <CardHeader title={title} description={description} />
        <LoadingState label={`Loading ${title}…`} rows={5} />
      </Card>
    );
  }
  if (doc.isError) {
    return (
      <Card>
        <CardHeader title={title} description={description} />
        <ErrorState error={doc.error} onRetry={() => doc.refetch()} retrying={doc.isFetching} />
      </Card>
    );
  }

  const saved = doc.data;
  const content = draft?.content ?? saved.content;
  const baseVersion = draft?.baseVersion ?? saved.version;
  const dirty = draft !== null && draft.content !== saved.content;
  const count = charCount(content);
  const over = maxChars !== undefined && count > maxChars;
  const meta =
    saved.version === 0 ? (
      <span>Never written</span>
    ) : (
      <span title={formatDateTime(saved.updatedAt)}>
        Version {saved.version} · saved {formatRelative(saved.updatedAt)}
        {saved.updatedByName ? ` by ${saved.updatedByName}` : ""}
      </span>
    );

  function edit(value: string) {
    setDraft(draft ? { ...draft, content: value } : { content: value, baseVersion: saved.version, baseContent: saved.content });
    setJustSaved(false);
  }

  /** Replays this edit onto the version saved meanwhile; the result waits in the editor for a check and a save. */
  function merge(theirs: AgentDocument) {
    const merged = mergeText(draft?.baseContent ?? saved.content, content, theirs.content);
    setDraft({ content: merged.text, baseVersion: theirs.version, baseContent: theirs.content });
    setConflict(null);
    setNotice(
      merged.clean
        ? { tone: "info", text: `Your changes were merged into version ${theirs.version}. Check the text, then save.` }
        : {
            tone: "warning",
            text: `You and the other writer changed the same lines, so your new lines were added at the end of version ${theirs.version}. Tidy them up, then save.`,
          },
    );
    void doc.refetch();
  }

  async function submit(expectedVersion: number) {
    setError(null);
    try {
      await save.mutateAsync({ content, expectedVersion, ...(date ? { date } : {}) });
      setNotice(null);
      setDraft(null);
      setConflict(null);
      setJustSaved(true);
    } catch (err) {
      if (isApiError(err, 409) && err.code === "version_conflict") {
        setConflict((err.details as DocumentConflictDetails).current);
      } else {
        setError(errorMessage(err));
      }
    }
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if ((e.metaKey || e.ctrlKey) && e.key === "s") {
      e.preventDefault();
      if (dirty && !over && !save.isPending) void submit(baseVersion);
    }
  }

  if (!canEdit) {
    return (
      <Card>
        <CardHeader title={title} description={description} actions={<span className="text-xs text-slate-500">{meta}</span>} />
        {saved.content ? (
          <CardBody>
            <Markdown>{saved.content}</Markdown>
          </CardBody>
        ) : (
          <EmptyState title={`No ${title.toLowerCase()} yet`} description="The agent hasn't written this document." />
        )}
      </Card>
    );
  }

  return (
    <Card>
      <CardHeader
        title={title}
        description={description}
        actions={
          <>
            {dirty && <Badge tone="amber">Unsaved changes</Badge>}
            {justSaved && !dirty && <Badge tone="green">Saved</Badge>}
            <Button variant="secondary" size="sm" onClick={() => setPreview((p) => !p)} aria-pressed={preview}>
              {preview ? "Edit" : "Preview"}
            </Button>
          </>
        }
      />
      <CardBody className="space-y-3">
        {preview ? (
          <div className="min-h-40 rounded-md border border-slate-200 p-4" data-testid="document-preview">
            {content.trim() ? <Markdown>{content}</Markdown> : <p className="text-sm text-slate-500 italic">Nothing to preview yet.</p>}
          </div>
        ) : (
          <Textarea
            aria-label={title}
            value={content}
            onChange={(e) => edit(e.target.value)}
            onKeyDown={onKeyDown}
            rows={type === "soul" ? 18 : 14}
            placeholder={placeholder}
            invalid={over}
            className="font-mono text-[13px] leading-5"
            spellCheck={false}
          />
        )}
        <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-slate-500">
          {meta}
          {maxChars !== undefined ? (
            <span
              data-testid="char-counter"
              aria-live="polite"
              className={cn("font-medium tabular-nums", over ? "text-red-600" : count > maxChars * 0.9 ? "text-amber-700" : "text-slate-500")}
            >
              {count.toLocaleString("en-US")} / {maxChars.toLocaleString("en-US")} characters
              {over ? ` — ${(count - maxChars).toLocaleString("en-US")} over the limit` : ""}
            </span>
          ) : (
            <span className="tabular-nums">{count.toLocaleString("en-US")} characters</span>
          )}
        </div>
        {notice && (
          <Alert tone={notice.tone}>
            {notice.text}
          </Alert>
        )}
        {error && <Alert tone="error">{error}</Alert>}
      </CardBody>
      <CardFooter>
        <Button
          variant="ghost"
          onClick={() => {
            setDraft(null);
            setNotice(null);
          }}
          disabled={!dirty || save.isPending}
        >
          Discard changes
        </Button>
        <Button onClick={() => submit(baseVersion)} disabled={!dirty || over} loading={save.isPending && !conflict}>
          Save
        </Button>
      </CardFooter>
      <VersionConflictDialog
        key={conflict?.version ?? 0}
        open={conflict !== null}
        mine={content}
        theirs={conflict}
        saving={save.isPending}
        onMerge={() => conflict && merge(conflict)}
        onOverwrite={() => conflict && submit(conflict.version)}
        onUseTheirs={() => {
          setDraft(null);
          setNotice(null);
          setConflict(null);
          void doc.refetch();
        }}
        onClose={() => setConflict(null)}
      />
    </Card>
  );
}
