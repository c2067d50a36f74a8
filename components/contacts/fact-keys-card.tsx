"use client";

import { useState, type FormEvent } from "react";
import { useIsAdmin } from "@/components/shell/current-user";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";
import { Field } from "@/components/ui/field";
import { LoadingState } from "@/components/ui/loading-state";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage } from "@/lib/console/api";
import { parseFactKeys } from "@/lib/console/fact-keys";
import { useFactKeys, useSaveFactKeys } from "@/lib/console/hooks/review";

/**
 * A client's business-relevance allow-list ("Is this a business-relevant fact?"). With a
 * list, keys outside it are never auto-approved; with none, relevance is left to the reviewer.
 */
export function FactKeysCard({ clientId, clientName }: { clientId: string; clientName: string }) {
  const isAdmin = useIsAdmin();
  const keys = useFactKeys(clientId);
  const [editing, setEditing] = useState(false);

  return (
    <Card data-testid="fact-keys-card">
      <CardHeader
        title={`Business-relevant fact keys · ${clientName}`}
        description="Suggestions with other keys are never approved automatically; a reviewer decides."
        actions={
          isAdmin &&
          !editing &&
          keys.data && (
            <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
              Edit list
            </Button>
          )
        }
      />
      <CardBody>
        {keys.isPending ? (
          <LoadingState label="Loading the allow-list…" rows={1} className="px-0 py-0" />
        ) : keys.isError ? (
          <ErrorState error={keys.error} onRetry={() => keys.refetch()} retrying={keys.isFetching} />
        ) : editing ? (
          <FactKeysForm clientId={clientId} initial={keys.data} onDone={() => setEditing(false)} />
        ) : keys.data.length === 0 ? (
          <p className="text-sm text-slate-500">No list: any key may be approved automatically when it is confident and clean.</p>
        ) : (
          <ul className="flex flex-wrap gap-1.5" aria-label="Allowed keys">
            {keys.data.map((k) => (
              <li key={k}>
                <Badge tone="indigo">
                  <code className="font-mono">{k}</code>
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}

function FactKeysForm({ clientId, initial, onDone }: { clientId: string; initial: string[]; onDone: () => void }) {
  const [text, setText] = useState(initial.join(", "));
  const [error, setError] = useState<string | null>(null);
  const save = useSaveFactKeys(clientId, {
    onSuccess: onDone,
    onError: (err) => setError(errorMessage(err)),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = parseFactKeys(text);
    if ("error" in parsed) {
      setError(parsed.error);
      return;
    }
    setError(null);
    save.mutate(parsed.keys);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Field label="Keys" hint="Separate with commas or new lines. Leave empty for no list." error={error}>
        <Textarea value={text} onChange={(e) => setText(e.target.value)} rows={3} className="font-mono" />
      </Field>
      <div className="mt-3 flex justify-end gap-2">
        <Button variant="secondary" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending}>
          Save list
        </Button>
      </div>
    </form>
  );
}
