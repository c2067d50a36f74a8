"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage } from "@/lib/client/api";
import { useResolveEscalation } from "@/lib/client/hooks/lifecycle";
import { KNOWLEDGE_CATEGORIES, type KnowledgeCategory } from "@/lib/client/knowledge-types";
import type { Escalation } from "@/lib/client/lifecycle-types";

/** Resolves an escalation; the knowledge form comes prefilled from it, so a reusable fix is one click away. */
export function ResolveEscalationDialog({ escalation, onClose }: { escalation: Escalation | null; onClose: () => void }) {
  const resolve = useResolveEscalation();
  return (
    <Dialog open={escalation !== null} onClose={onClose} title="Resolve the escalation" description={escalation?.question} size="lg" dismissible={!resolve.isPending}>
      {escalation && <ResolveForm key={escalation.id} escalation={escalation} onClose={onClose} resolve={resolve} />}
    </Dialog>
  );
}

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
  const [capture, setCapture] = useState(true);
  const [title, setTitle] = useState(escalation.question.slice(0, 200));
  const [content, setContent] = useState(`**Problem:** ${escalation.question}\n\n**Fix:** `);
  const [category, setCategory] = useState<KnowledgeCategory>("escalation");
  const [tags, setTags] = useState(`escalation, ${escalation.severity}`);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await resolve.mutateAsync({
        id: escalation.id,
        resolution: resolution.trim(),
        ...(capture
          ? { knowledge: { title: title.trim(), content, category, tags: tags.split(",").map((t) => t.trim()).filter(Boolean) } }
          : {}),
      });
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <Field label="Resolution" required hint="What fixed it, for the agent that asked.">
        <Textarea value={resolution} onChange={(e) => setResolution(e.target.value)} rows={3} maxLength={20000} />
      </Field>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" checked={capture} onChange={(e) => setCapture(e.target.checked)} className="size-4 rounded border-slate-300" />
        Capture the fix in the knowledge base, so the same issue is never escalated twice
      </label>
      {capture && (
        <fieldset className="space-y-4 rounded-md border border-slate-200 p-4" aria-label="Knowledge entry">
          <Field label="Title" required>
            <Input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} />
          </Field>
          <Field label="Content" required hint="Markdown. Written for any agent that meets the same issue.">
            <Textarea value={content} onChange={(e) => setContent(e.target.value)} rows={6} />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Category">
              <Select value={category} onChange={(e) => setCategory(e.target.value as KnowledgeCategory)} options={KNOWLEDGE_CATEGORIES.map((c) => ({ value: c, label: c }))} />
            </Field>
            <Field label="Tags" hint="Comma separated.">
              <Input value={tags} onChange={(e) => setTags(e.target.value)} />
            </Field>
          </div>
        </fieldset>
      )}
      {error && <Alert tone="error">{error}</Alert>}
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={resolve.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={resolve.isPending} disabled={!resolution.trim() || (capture && (!title.trim() || !content.trim()))}>
          Resolve
        </Button>
      </DialogFooter>
    </form>
  );
}
