"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Tabs } from "@/components/ui/tabs";
import { Textarea } from "@/components/ui/textarea";
import { VersionConflictDialog } from "@/components/memories/version-conflict-dialog";
import { mergeText } from "@/components/memories/merge-text";
import { ApiClientError, formErrors } from "@/lib/console/api";
import { useDraft, useUnsavedEdit } from "@/lib/console/drafts";
import { KNOWLEDGE_CATEGORIES, type KnowledgeCategory, type KnowledgeDraft, type KnowledgeEntry } from "@/lib/console/knowledge-types";
import { CATEGORY_LABEL, CATEGORY_OPTIONS, parseTags } from "./labels";
import { MarkdownPreview } from "./markdown-preview";

export interface EntryEditorProps {
  initial?: KnowledgeDraft;
  /** the version `initial` is: a save sends it, and a 409 version_conflict opens the merge dialog */
  version?: number;
  /** where the unsaved edit is kept (the console's drafts): `knowledge.<id>`, or `knowledge.new` */
  draftKey: string;
  /** names the edit when leaving with it unsaved asks first */
  draftLabel: string;
  submitLabel: string;
  /** resolves when saved; a rejection is shown in the form (field errors, conflicts) */
  onSubmit: (draft: KnowledgeDraft, expectedVersion?: number) => Promise<unknown>;
  onCancel?: () => void;
}

const EMPTY: KnowledgeDraft = { title: "", content: "", category: "procedure", tags: [] };
const FIELDS = ["title", "category", "tags", "content"] as const;
const sameTags = (a: string[], b: string[]) => a.join(",") === b.join(",");

/** The edit as typed (tags as the text in their box), and the saved version it is based on. */
interface EntryEdit {
  title: string;
  category: KnowledgeCategory;
  tags: string;
  content: string;
  /** the saved version this edit is based on: the common ancestor when a conflicting save is merged */
  base: { version?: number; draft: KnowledgeDraft };
}

const isEntryEdit = (v: unknown): v is EntryEdit => {
  const e = v as EntryEdit;
  return (
    typeof e === "object" && e !== null && typeof e.title === "string" && typeof e.tags === "string" && typeof e.content === "string" &&
    KNOWLEDGE_CATEGORIES.includes(e.category) && typeof e.base?.draft?.content === "string"
  );
};

/**
 * Title, category, tags and markdown content with a preview of what agents will read. What is typed
 * is kept as a draft (per entry) until it is saved or discarded, so switching tabs, leaving the page
 * or reloading loses nothing. An edit of an existing entry keeps the version it started from: when
 * someone saved meanwhile, the conflict dialog shows what differs and merges both edits by default
 * (as the agent documents' editor does), or saves yours over theirs, or takes theirs.
 */
export function EntryEditor({ initial = EMPTY, version, draftKey, draftLabel, submitLabel, onSubmit, onCancel }: EntryEditorProps) {
  const [stored, setStored] = useDraft(draftKey, isEntryEdit);
  const edit: EntryEdit = stored ?? { ...initial, tags: initial.tags.join(", "), base: { version, draft: initial } };
  const { title, category, tags, content, base } = edit;
  const change = (fields: Partial<EntryEdit>) => setStored({ ...edit, ...fields });
  const [conflict, setConflict] = useState<KnowledgeEntry | null>(null);
  const [notice, setNotice] = useState<{ tone: "info" | "warning"; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const draft = (): KnowledgeDraft => ({ title: title.trim(), category, tags: parseTags(tags), content });
  const errors = error === null ? {} : formErrors(error, FIELDS);
  const was = base.draft;
  const dirty = stored !== null && (title.trim() !== was.title.trim() || category !== was.category || !sameTags(parseTags(tags), was.tags) || content !== was.content);
  useUnsavedEdit(draftKey, dirty, draftLabel);
  // opened on an unsaved edit kept from before (a tab switch, a reload): said, not only shown
  const [restored] = useState(dirty);

  async function save(expectedVersion: number | undefined) {
    setPending(true);
    setError(null);
    try {
      await onSubmit(draft(), expectedVersion);
      setStored(null);
      setConflict(null);
      setNotice(null);
    } catch (err) {
      if (err instanceof ApiClientError && err.code === "version_conflict") {
        setConflict((err.details as { current: KnowledgeEntry }).current);
      } else {
        setError(err);
      }
    } finally {
      setPending(false);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    void save(base.version);
  }

  /** Shows `next` in the form, based on the saved version `on`. */
  function show(next: KnowledgeDraft, on: EntryEdit["base"]) {
    setStored({ title: next.title, category: next.category, tags: next.tags.join(", "), content: next.content, base: on });
  }

  /** Replays this edit onto the version saved meanwhile: a field only you changed keeps yours, the rest takes theirs. */
  function merge(theirs: KnowledgeEntry) {
    const mine = draft();
    const merged = mergeText(was.content, mine.content, theirs.content);
    show(
      {
        title: mine.title !== was.title.trim() ? mine.title : theirs.title,
        category: mine.category !== was.category ? mine.category : theirs.category,
        tags: !sameTags(mine.tags, was.tags) ? mine.tags : theirs.tags,
        content: merged.text,
      },
      { version: theirs.version, draft: { title: theirs.title, category: theirs.category, tags: theirs.tags, content: theirs.content } },
    );
    setConflict(null);
    setNotice(
      merged.clean
        ? { tone: "info", text: `Your changes were merged into version ${theirs.version}. Check the entry, then save.` }
        : {
            tone: "warning",
            text: `You and ${theirs.updatedBy} changed the same lines, so your new lines were added at the end of version ${theirs.version}. Tidy them up, then save.`,
          },
    );
  }

  function takeTheirs(theirs: KnowledgeEntry) {
    const next = { title: theirs.title, category: theirs.category, tags: theirs.tags, content: theirs.content };
    show(next, { version: theirs.version, draft: next });
    setConflict(null);
    setNotice({ tone: "info", text: `Showing version ${theirs.version} as saved by ${theirs.updatedBy}; your edit was discarded.` });
  }

  const mine = draft();
  const otherDifferences = conflict
    ? [
        conflict.title !== mine.title && `Title — theirs: “${conflict.title}”, yours: “${mine.title}”`,
        conflict.category !== mine.category && `Category — theirs: ${CATEGORY_LABEL[conflict.category]}, yours: ${CATEGORY_LABEL[mine.category]}`,
        !sameTags(conflict.tags, mine.tags) && `Tags — theirs: ${conflict.tags.join(", ") || "none"}, yours: ${mine.tags.join(", ") || "none"}`,
      ].filter((d): d is string => Boolean(d))
    : [];

  return (
    <form onSubmit={submit} className="space-y-5" aria-label="Knowledge entry" noValidate>
      {restored && dirty && (
        <Alert tone="info">
          Your unsaved changes from before are back. Save them, or choose Discard changes to return to the saved version.
        </Alert>
      )}
      <div className="grid gap-4 sm:grid-cols-[1fr_14rem]">
        <Field label="Title" required error={errors.title} hint="The question an agent would search for.">
          <Input value={title} onChange={(e) => change({ title: e.target.value })} maxLength={200} name="title" />
        </Field>
        <Field label="Category" required error={errors.category}>
          <Select value={category} onChange={(e) => change({ category: e.target.value as KnowledgeCategory })} options={CATEGORY_OPTIONS} name="category" />
        </Field>
      </div>
      <Field label="Tags" error={errors.tags} hint="Comma-separated, e.g. escalation, sms, onboarding">
        <Input value={tags} onChange={(e) => change({ tags: e.target.value })} name="tags" />
      </Field>
      <div>
        <p className="mb-1.5 text-sm font-medium text-slate-700">
          Content<span className="ml-0.5 text-red-600" aria-hidden="true">*</span>
        </p>
        <Tabs
          label="Content"
          items={[
            {
              id: "write",
              label: "Write",
              content: (
                <Field label={<span className="sr-only">Content (markdown)</span>} error={errors.content} hint="Markdown: # headings, lists, **bold**, `code`, [links](https://…)">
                  <Textarea value={content} onChange={(e) => change({ content: e.target.value })} rows={16} className="font-mono text-[13px]" name="content" />
                </Field>
              ),
            },
            {
              id: "preview",
              label: "Preview",
              content: (
                <div className="min-h-48 rounded-md border border-slate-200 bg-white px-4 py-3">
                  <MarkdownPreview source={content} />
                </div>
              ),
            },
          ]}
        />
      </div>

      {notice && (
        <Alert tone={notice.tone}>
          {notice.text}
        </Alert>
      )}
      {errors.form && (
        <Alert tone="error" title="Not saved">
          {errors.form}
        </Alert>
      )}

      <VersionConflictDialog
        key={conflict?.version ?? 0}
        open={conflict !== null}
        noun="entry"
        mine={content}
        theirs={conflict && { version: conflict.version, content: conflict.content, updatedAt: conflict.updatedAt, updatedByName: conflict.updatedBy }}
        saving={pending}
        onMerge={() => conflict && merge(conflict)}
        onOverwrite={() => conflict && void save(conflict.version)}
        onUseTheirs={() => conflict && takeTheirs(conflict)}
        onClose={() => setConflict(null)}
      >
        {otherDifferences.length > 0 && (
          <ul className="mt-3 space-y-1 text-sm text-slate-700" aria-label="Other differences">
            {otherDifferences.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        )}
      </VersionConflictDialog>

      <div className="flex justify-end gap-2">
        {dirty && (
          <Button
            variant="ghost"
            onClick={() => {
              setStored(null);
              setNotice(null);
            }}
            disabled={pending}
            className="sm:mr-auto"
          >
            Discard changes
          </Button>
        )}
        {onCancel && (
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            {dirty ? "Keep as draft" : "Cancel"}
          </Button>
        )}
        <Button type="submit" loading={pending && !conflict}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
