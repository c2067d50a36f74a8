"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/console/api";
import { useIssueAgentKey } from "@/lib/console/hooks/agents";
import type { Agent, IssuedKey } from "@/lib/console/types";
import { KeySnippets } from "./key-snippets";

/** Issues a key and shows it once; after this dialog closes only its prefix is ever shown again. */
export function IssueKeyDialog({ open, onClose, agent }: { open: boolean; onClose: () => void; agent: Agent }) {
  const [label, setLabel] = useState("");
  const [issued, setIssued] = useState<IssuedKey | null>(null);

  const issue = useIssueAgentKey(agent.id, { onSuccess: (key) => setIssued(key) });

  function close() {
    // forget the key: it must not be shown again
    setIssued(null);
    setLabel("");
    issue.reset();
    onClose();
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    issue.mutate(label.trim() ? { label: label.trim() } : {});
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      dismissible={!issue.isPending && !issued}
      size={issued ? "lg" : "md"}
      title={issued ? "Copy the new key" : `Issue a key for ${agent.name}`}
      description={issued ? undefined : "The agent sends it as 'Authorization: Bearer <key>'."}
    >
      {issued ? (
        <div className="space-y-4">
          <Alert tone="warning" title="This key won't be shown again">
            Copy it now and store it in the agent&apos;s secret store. If it is lost, revoke it and issue a new one.
          </Alert>
          <div className="flex items-center gap-2 rounded-md border border-slate-200 bg-slate-50 p-2 pl-3">
            <code data-testid="new-key" className="min-w-0 flex-1 font-mono text-sm break-all text-slate-900 select-all">
              {issued.key}
            </code>
            <CopyButton value={issued.key} label="Copy key" data-autofocus />
          </div>
          {agent.role === "isolated" && (
            <Alert tone="info">
              {agent.name} is isolated: it gets no memory and no knowledge base, so the calls below answer 403 for it. The key
              identifies it (GET /api/v1/agents/me, which Test this key calls).
            </Alert>
          )}
          <KeySnippets issuedKey={issued.key} />
          <DialogFooter>
            <Button onClick={close}>I&apos;ve copied the key</Button>
          </DialogFooter>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {issue.isError && <Alert tone="error">{errorMessage(issue.error)}</Alert>}
          <Field label="Label" hint="Optional: where the key is used, e.g. “production” or “staging laptop”">
            <Input value={label} onChange={(e) => setLabel(e.target.value)} maxLength={100} />
          </Field>
          <DialogFooter>
            <Button variant="secondary" onClick={close} disabled={issue.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={issue.isPending}>
              Issue key
            </Button>
          </DialogFooter>
        </form>
      )}
    </Dialog>
  );
}
