"use client";

import Link from "next/link";
import { useState } from "react";
import { useCanCurate } from "@/components/shell/current-user";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";
import { useEscalations } from "@/lib/console/hooks/lifecycle";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { Tabs } from "@/components/ui/tabs";
import { useUndoable } from "@/components/ui/toast";
import { isApiError } from "@/lib/console/api";
import { useIsUnsaved } from "@/lib/console/drafts";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import { useArchiveKnowledge, useKnowledgeEntry, useUpdateKnowledge } from "@/lib/console/hooks/knowledge";
import type { KnowledgeDraft, KnowledgeEntry } from "@/lib/console/knowledge-types";
import { oneOf, useUrlState } from "@/lib/console/url-state";
import { CategoryBadge, TagList } from "./category-badge";
import { EntryEditor } from "./entry-editor";
import { MarkdownPreview } from "./markdown-preview";
import { VersionHistory } from "./version-history";

const BACK = { href: "/knowledge", label: "Knowledge base" };

/** One knowledge entry: read it, edit it (curators), see and restore its history, archive it. */
export function EntryDetail({ id }: { id: string }) {
  const entry = useKnowledgeEntry(id);

  if (entry.isPending) {
    return (
      <>
        <PageHeader title="Knowledge entry" back={BACK} />
        <Card>
          <LoadingState label="Loading the entry…" />
        </Card>
      </>
    );
  }
  if (entry.isError) {
    return (
      <>
        <PageHeader title="Knowledge entry" back={BACK} />
        <Card>
          {isApiError(entry.error, 404) ? (
            <EmptyState title="This entry does not exist" description="It may have been mistyped; entries are archived, never deleted." />
          ) : (
            <ErrorState error={entry.error} onRetry={() => entry.refetch()} retrying={entry.isFetching} />
          )}
        </Card>
      </>
    );
  }
  return <EntryView entry={entry.data} />;
}

const TABS = ["content", "edit", "history"] as const;

function EntryView({ entry }: { entry: KnowledgeEntry }) {
  const canCurate = useCanCurate();
  // the tab is in the address (/knowledge/<id>?tab=history), with the history's chosen versions
  const [view, setView] = useUrlState({ tab: "content", v: "", against: "" });
  const tab = oneOf(view.tab, TABS, "content");
  const setTab = (t: string) => setView({ tab: t, v: null, against: null }, { push: true });
  const [notice, setNotice] = useState<string | null>(null);
  const update = useUpdateKnowledge(entry.id);
  const archive = useArchiveKnowledge(entry.id);
  const undoable = useUndoable();
  const archived = entry.status === "archived";
  // an edit of this entry left unsaved in this browser tab (kept as a draft), shown from every tab
  const unsaved = useIsUnsaved(`knowledge.${entry.id}`) && canCurate;

  async function save(draft: KnowledgeDraft, expectedVersion = entry.version) {
    const saved = await update.mutateAsync({ ...draft, expectedVersion });
    setNotice(saved.version === entry.version ? "Nothing changed." : `Saved as version ${saved.version}.`);
    setTab("content");
  }

  /** Archiving and unarchiving act at once; Undo in the toast does the opposite (each is a change the audit log records). */
  function toggleArchived() {
    if (archived) {
      void undoable({
        act: () => update.mutateAsync({ status: "published", expectedVersion: entry.version }),
        done: () => "Published again: agents find it in their searches.",
        undo: (e) => archive.mutateAsync().then(() => e),
        undone: "Archived again.",
        failed: "Couldn't publish it",
      });
      return;
    }
    void undoable({
      act: () => archive.mutateAsync(),
      done: () => "Archived: agents no longer find it. Nothing is deleted.",
      undo: (e) => update.mutateAsync({ status: "published", expectedVersion: e.version }),
      undone: "Published again.",
      failed: "Couldn't archive it",
    });
  }

  const draft: KnowledgeDraft = { title: entry.title, content: entry.content, category: entry.category, tags: entry.tags };

  return (
    <>
      <PageHeader
        back={BACK}
        title={entry.title}
        meta={
          <>
            <CategoryBadge category={entry.category} />
            {archived ? <Badge tone="neutral">Archived</Badge> : <Badge tone="green">Published</Badge>}
            <Badge tone="indigo">Version {entry.version}</Badge>
            <TagList tags={entry.tags} max={8} />
          </>
        }
        actions={
          canCurate &&
          (archived ? (
            <Button variant="secondary" onClick={toggleArchived} loading={update.isPending}>
              Unarchive
            </Button>
          ) : (
            <Button variant="ghost" onClick={toggleArchived} loading={archive.isPending}>
              Archive
            </Button>
          ))
        }
      />

      <p className="-mt-3 mb-5 text-xs text-slate-500">
        Written by {entry.createdBy} · last edited by {entry.updatedBy} <span title={formatDateTime(entry.updatedAt)}>{formatRelative(entry.updatedAt)}</span> · served
        to agents {entry.accessedCount} time{entry.accessedCount === 1 ? "" : "s"}
        {entry.lastAccessedAt ? ` (last ${formatRelative(entry.lastAccessedAt)})` : ""}
        {!entry.embedded && " · waiting for its embedding: found by words only until then"}
      </p>
      <FixedEscalations entryId={entry.id} />

      {archived && (
        <Alert tone="warning" className="mb-4">
          This entry is archived: agents no longer find it. Its history is kept; unarchive it to publish it again.
        </Alert>
      )}
      {unsaved && tab !== "edit" && (
        <Alert tone="warning" className="mb-4">
          Your edit of this entry is not saved yet; it is kept in this browser tab.{" "}
          <button type="button" className="font-medium underline" onClick={() => setTab("edit")}>
            Continue editing
          </button>
        </Alert>
      )}
      {notice && (
        <Alert tone="success" className="mb-4">
          {notice}
        </Alert>
      )}

      <Tabs
        label="Entry"
        value={tab}
        onValueChange={(t) => {
          setTab(t);
          setNotice(null);
        }}
        items={[
          {
            id: "content",
            label: "Content",
            content: (
              <Card>
                <CardBody>
                  <MarkdownPreview source={entry.content} />
                </CardBody>
              </Card>
            ),
          },
          ...(canCurate
            ? [
                {
                  id: "edit",
                  label: "Edit",
                  badge: unsaved ? <Badge tone="amber">Unsaved</Badge> : undefined,
                  content: (
                    <Card>
                      <CardBody>
                        {/* not keyed on the version: a refetch after a refused save must not drop what was typed */}
                        <EntryEditor
                          initial={draft}
                          version={entry.version}
                          draftKey={`knowledge.${entry.id}`}
                          draftLabel={`your edit of “${entry.title}”`}
                          submitLabel="Save changes"
                          onSubmit={(d, expectedVersion) => save(d, expectedVersion)}
                          onCancel={() => setTab("content")}
                        />
                      </CardBody>
                    </Card>
                  ),
                },
              ]
            : []),
          {
            id: "history",
            label: "History",
            badge: <Badge>{entry.version}</Badge>,
            content: (
              <Card>
                <CardBody>
                  <VersionHistory entry={entry} />
                </CardBody>
              </Card>
            ),
          },
        ]}
      />

    </>
  );
}

/** The escalations this entry is the fix of: where it came from, and what it resolved since. */
function FixedEscalations({ entryId }: { entryId: string }) {
  const list = useEscalations({ status: "resolved", knowledgeEntryId: entryId }, { page: 1, pageSize: 1 });
  const total = list.answer?.counts.resolved ?? 0;
  if (!total) return null;
  const first = list.rows[0]!;
  return (
    <p className="-mt-3 mb-5 text-sm text-slate-700" data-testid="entry-escalations">
      The fix of {total === 1 ? "an escalation" : `${total} escalations`}:{" "}
      <Link className="text-indigo-700 underline" href={`/escalations?status=resolved&focus=${first.id}`}>
        “{first.question.length > 90 ? `${first.question.slice(0, 90)}…` : first.question}”
      </Link>
      {total > 1 && (
        <>
          {" "}
          and{" "}
          <Link className="text-indigo-700 underline" href={`/escalations?status=resolved&entry=${entryId}`}>
            {total - 1} more
          </Link>
        </>
      )}
    </p>
  );
}
