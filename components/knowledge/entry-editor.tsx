"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Tabs } from "@/components/ui/tabs";
import { Textarea } from "@/components/ui/textarea";
import { ApiClientError, errorMessage } from "@/lib/client/api";
import type { KnowledgeCategory, KnowledgeDraft } from "@/lib/client/knowledge-types";
import { CATEGORY_OPTIONS, parseTags } from "./labels";
import { MarkdownPreview } from "./markdown-preview";

export interface EntryEditorProps {
  initial?: KnowledgeDraft;
  submitLabel: string;
  /** resolves when saved; a rejection is shown in the form (field errors, conflicts) */
  onSubmit: (draft: KnowledgeDraft) => Promise<unknown>;
  onCancel?: () => void;
  /** shown when a save hits 409 version_conflict: saves the draft over the newer version */
  onOverwrite?: (draft: KnowledgeDraft, currentVersion: number) => Promise<unknown>;
}

const EMPTY: KnowledgeDraft = { title: "", content: "", category: "procedure", tags: [] };

/** Title, category, tags and markdown content with a preview of what agents will read. */
export function EntryEditor({ initial = EMPTY, submitLabel, onSubmit, onCancel, onOverwrite }: EntryEditorProps) {
  const [title, setTitle] = useState(initial.title);
  const [category, setCategory] = useState<KnowledgeCategory>(initial.category);
  const [tags, setTags] = useState(initial.tags.join(", "));
  const [content, setContent] = useState(initial.content);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const draft = (): KnowledgeDraft => ({ title: title.trim(), category, tags: parseTags(tags), content });
  const fieldErrors = error instanceof ApiClientError ? error.fieldErrors : {};
  const conflict = error instanceof ApiClientError && error.code === "version_conflict" ? error : null;
  const currentVersion = (conflict?.details as { current?: { version?: number; updatedBy?: string } } | undefined)?.current;

  async function run(action: () => Promise<unknown>) {
    setPending(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err);
    } finally {
      setPending(false);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    void run(() => onSubmit(draft()));
  }

  return (
    <form onSubmit={submit} className="space-y-5" aria-label="Knowledge entry" noValidate>
      <div className="grid gap-4 sm:grid-cols-[1fr_14rem]">
        <Field label="Title" required error={fieldErrors.title} hint="The question an agent would search for.">
          <Input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} name="title" />
        </Field>
        <Field label="Category" required error={fieldErrors.category}>
          <Select value={category} onChange={(e) => setCategory(e.target.value as KnowledgeCategory)} options={CATEGORY_OPTIONS} name="category" />
        </Field>
      </div>
      <Field label="Tags" error={fieldErrors.tags} hint="Comma-separated, e.g. escalation, sms, onboarding">
        <Input value={tags} onChange={(e) => setTags(e.target.value)} name="tags" />
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
                <Field label={<span className="sr-only">Content (markdown)</span>} error={fieldErrors.content} hint="Markdown: # headings, lists, **bold**, `code`, [links](https://…)">
                  <Textarea value={content} onChange={(e) => setContent(e.target.value)} rows={16} className="font-mono text-[13px]" name="content" />
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

      {conflict ? (
        <Alert tone="warning" title="Someone else saved this entry while you were editing">
          <p>
            It is now at version {currentVersion?.version ?? "?"}
            {currentVersion?.updatedBy ? `, saved by ${currentVersion.updatedBy}` : ""}. Your text is still here. Open the history to see
            their change, or save yours as the next version (theirs stays in the history).
          </p>
          {onOverwrite && currentVersion?.version && (
            <Button
              className="mt-2"
              size="sm"
              variant="secondary"
              loading={pending}
              onClick={() => run(() => onOverwrite(draft(), currentVersion.version!))}
            >
              Save mine as the next version
            </Button>
          )}
        </Alert>
      ) : (
        error !== null && (
          <Alert tone="error" title="Not saved">
            {errorMessage(error)}
          </Alert>
        )
      )}

      <div className="flex justify-end gap-2">
        {onCancel && (
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
        )}
        <Button type="submit" loading={pending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
