"use client";

import Link from "next/link";
import { useState, type FormEvent, type ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { useDebounced } from "@/components/ui/use-debounced";
import { CATEGORY_OPTIONS } from "@/components/knowledge/labels";
import { errorMessage, formErrors } from "@/lib/console/api";
import { useKnowledgeList } from "@/lib/console/hooks/knowledge";
import { useEscalationDraft, useResolveEscalation, useSimilarEscalations } from "@/lib/console/hooks/lifecycle";
import type { KnowledgeCategory } from "@/lib/console/knowledge-types";
import { formatRelative } from "@/lib/console/format";
import type { Escalation, EscalationEntryDraft } from "@/lib/console/lifecycle-types";
import { PERSONAL_DATA_LABELS } from "@/lib/review/pii";

/**
 * Resolves an escalation. The fix typed here is what the agent receives and what is published to the
 * knowledge base, so a later similar escalation is answered with it (`knownFix`). The entry shown is the
 * server's draft — composed by the code that publishes it, with the client's personal data left out,
 * since every client's agents will read it — and follows the resolution until it is edited by hand.
 * When an entry already answers the question, it is offered to link instead; publishing nothing is
 * always one choice away.
 */
export function ResolveEscalationDialog({ escalation, onClose }: { escalation: Escalation | null; onClose: () => void }) {
  const resolve = useResolveEscalation();
  return (
    <Dialog open={escalation !== null} onClose={onClose} title="Resolve the escalation" description={escalation?.question} size="lg" dismissible={!resolve.isPending}>
      {escalation && <ResolveForm key={escalation.id} escalation={escalation} onClose={onClose} resolve={resolve} />}
    </Dialog>
  );
}

type Publish = "new" | "none" | `link:${string}`;
const FIELDS = ["resolution"] as const;

/** "a person's name and a street address" */
const removedKinds = (removed: EscalationEntryDraft["personalDataRemoved"]) => {
  const labels = [...new Set(removed.map((r) => PERSONAL_DATA_LABELS[r.kind]))];
  return labels.length > 1 ? `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}` : (labels[0] ?? "");
};

function ResolveForm({
  escalation,
  onClose,
  resolve,
}: {
  escalation: Escalation;
  onClose: () => void;
  resolve: ReturnType<typeof useResolveEscalation>;
}) {
  const [resolution, setResolution] = useState("");
  const [publish, setPublish] = useState<Publish>("new");
  // null until edited by hand: each follows the server's draft
  const [title, setTitle] = useState<string | null>(null);
  const [content, setContent] = useState<string | null>(null);
  const [category, setCategory] = useState<KnowledgeCategory | null>(null);
  const [tags, setTags] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<(typeof FIELDS)[number] | "title" | "form", string>>>({});
  // the near-duplicates resolved along with it: all of them unless unticked
  const similar = useSimilarEscalations(escalation.id);
  const [skipped, setSkipped] = useState<ReadonlySet<string>>(new Set());
  // another client's escalation gets the fix as published: without an entry it cannot go along
  const canJoin = (other: Escalation) => publish !== "none" || other.clientId === escalation.clientId;
  const alsoResolve = (similar.data ?? []).map((s) => s.escalation).filter((o) => canJoin(o) && !skipped.has(o.id)).map((o) => o.id);
  const existing = useKnowledgeList({ q: escalation.question }, 1);
  const answers = existing.answer?.mode === "search" ? existing.rows.slice(0, 3) : [];
  const draft = useEscalationDraft(escalation.id, useDebounced(resolution.trim(), 300));
  const drafted = draft.data?.draft;
  const removed = draft.data?.personalDataRemoved ?? [];
  const edited = title !== null || content !== null || category !== null || tags !== null;

  const shownTitle = title ?? drafted?.title ?? "";
  const shownTags = tags ?? drafted?.tags.join(", ") ?? "";

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found: typeof errors = {};
    const fix = resolution.trim();
    if (!fix) found.resolution = "Write the fix that was given: it is what the agent receives and what is published.";
    if (publish === "new" && title !== null && !title.trim()) found.title = "Give the entry a title";
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    try {
      let knowledge: { knowledge?: false | { title: string; content: string; category: KnowledgeCategory; tags: string[] }; knowledgeEntryId?: string } = {};
      if (publish === "none") knowledge = { knowledge: false };
      else if (publish.startsWith("link:")) knowledge = { knowledgeEntryId: publish.slice(5) };
      else if (edited) {
        // words of the resolver's own, the rest as the server drafts it for the fix as submitted
        const current = (await draft.draftFor(fix)).draft;
        knowledge = {
          knowledge: {
            title: (title ?? current.title).trim(),
            content: content ?? current.content,
            category: category ?? current.category,
            tags: (tags ?? current.tags.join(", ")).split(",").map((t) => t.trim()).filter(Boolean),
          },
        };
      }
      // untouched, no knowledge body: the server composes exactly the draft shown, for the fix as submitted
      await resolve.mutateAsync({ id: escalation.id, resolution: fix, ...(alsoResolve.length ? { alsoResolve } : {}), ...knowledge });
      onClose();
    } catch (err) {
      setErrors(formErrors(err, FIELDS));
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <Field label="Resolution" required error={errors.resolution} hint="The fix that was given: the agent receives it, and it is published so the same issue is answered next time.">
        <Textarea value={resolution} onChange={(e) => setResolution(e.target.value)} rows={3} maxLength={20000} />
      </Field>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">Knowledge base</legend>
        <Choice name="publish" value="new" checked={publish === "new"} onChange={setPublish}>
          Publish the fix as a new entry, so the same issue is never escalated twice
        </Choice>
        {answers.map((a) => (
          <Choice key={a.id} name="publish" value={`link:${a.id}`} checked={publish === `link:${a.id}`} onChange={setPublish}>
            It is already answered by{" "}
            <Link className="font-medium text-indigo-700 underline" href={`/knowledge/${a.id}`} target="_blank">
              {a.title}
            </Link>{" "}
            — link that entry as the fix
          </Choice>
        ))}
        <Choice name="publish" value="none" checked={publish === "none"} onChange={setPublish}>
          Publish nothing (a one-off with nothing to reuse, or the entry would say too much)
        </Choice>
      </fieldset>

      {publish === "new" && (
        <fieldset className="space-y-4 rounded-md border border-slate-200 p-4" aria-label="Knowledge entry" aria-busy={draft.isFetching}>
          {draft.isError && !drafted ? (
            <Alert tone="error" title="The entry could not be drafted">
              {errorMessage(draft.error)} Publish nothing, or link an entry that already answers it.
            </Alert>
          ) : !drafted ? (
            <p className="text-sm text-slate-500">Drafting the entry…</p>
          ) : (
            <>
              <Alert tone={removed.length ? "warning" : "info"} title="Every client's agents will read this entry">
                {removed.length
                  ? `Left out of it or put in general terms: ${removedKinds(removed)} from the ${[...new Set(removed.map((r) => r.from))].join(" and the ")}. Check that nothing else identifies the customer or the client — or publish nothing.`
                  : "Nothing in the question or the fix names a customer or the client. Check it reads as general advice — or publish nothing."}
              </Alert>
              <Field label="Title" required error={errors.title}>
                <Input value={shownTitle} onChange={(e) => setTitle(e.target.value)} maxLength={200} />
              </Field>
              <Field label="Content" required hint="Markdown, written for any agent that meets the same issue. It follows the resolution until you edit it.">
                <Textarea value={content ?? drafted.content} onChange={(e) => setContent(e.target.value)} rows={6} />
              </Field>
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="Category">
                  <Select value={category ?? drafted.category} onChange={(e) => setCategory(e.target.value as KnowledgeCategory)} options={CATEGORY_OPTIONS} />
                </Field>
                <Field label="Tags" hint="Comma separated.">
                  <Input value={shownTags} onChange={(e) => setTags(e.target.value)} />
                </Field>
              </div>
            </>
          )}
        </fieldset>
      )}
      {similar.data && similar.data.length > 0 && (
        <fieldset className="space-y-2" data-testid="similar-escalations">
          <legend className="text-sm font-medium text-slate-700">
            {similar.data.length === 1 ? "1 open escalation looks like the same issue" : `${similar.data.length} open escalations look like the same issue`}: resolve them with this fix too
          </legend>
          <ul className="max-h-52 space-y-1.5 overflow-y-auto rounded-md border border-slate-200 p-3">
            {similar.data.map(({ escalation: other }) => (
              <li key={other.id}>
                <label className="flex items-start gap-2 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4 rounded border-slate-300"
                    checked={canJoin(other) && !skipped.has(other.id)}
                    disabled={!canJoin(other)}
                    onChange={(e) =>
                      setSkipped((old) => {
                        const next = new Set(old);
                        if (e.target.checked) next.delete(other.id);
                        else next.add(other.id);
                        return next;
                      })
                    }
                  />
                  <span>
                    {other.question}
                    <span className="block text-xs text-slate-500">
                      {other.clientName ?? "HQ"} · {other.severity} · raised {formatRelative(other.createdAt)}
                      {!canJoin(other) && " · another client's: publish or link an entry to resolve it with the published fix"}
                    </span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
          <p className="text-xs text-slate-500">Each is resolved and linked to the same entry, and audited on its own; another client&apos;s gets the fix as the entry publishes it. If one of them was resolved meanwhile, nothing is resolved.</p>
        </fieldset>
      )}
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={resolve.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={resolve.isPending}>
          {alsoResolve.length ? `Resolve ${alsoResolve.length + 1} escalations` : "Resolve"}
        </Button>
      </DialogFooter>
    </form>
  );
}

function Choice({
  name,
  value,
  checked,
  onChange,
  children,
}: {
  name: string;
  value: Publish;
  checked: boolean;
  onChange: (v: Publish) => void;
  children: ReactNode;
}) {
  return (
    <label className="flex items-start gap-2 text-sm text-slate-700">
      <input type="radio" name={name} value={value} checked={checked} onChange={() => onChange(value)} className="mt-0.5 size-4 border-slate-300" />
      <span>{children}</span>
    </label>
  );
}
