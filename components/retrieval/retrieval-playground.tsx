"use client";

import { useMemo, useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { ErrorState } from "@/components/ui/error-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage } from "@/lib/console/api";
import { useAgents, useClients } from "@/lib/console/hooks/agents";
import { isSmallTalk } from "@/lib/retrieval/smart-trigger/classify";
import { useAssembledContext, useRetrieve } from "@/lib/console/hooks/retrieval";
import { RETRIEVAL_SCOPES, type RetrievalScope } from "@/lib/console/retrieval-types";
import { LEVEL_LABELS, LEVEL_TONES, SCOPE_HINTS, SCOPE_LABELS, TRIGGER_LABELS } from "./retrieval-labels";
import { RetrievedItems } from "./retrieved-items";

const EXAMPLES = [
  "Remember when we changed the follow-up wording?",
  "Should we move the backtest to next week?",
  "How do I reschedule a job?",
  "Thanks, sounds good!",
];

/**
 * The Retrieval playground: pick an agent, type a message the way the agent would receive it, and
 * see what the smart trigger decides, every item retrieval finds (with its score and source) and
 * the exact context text the agent gets. Runs with the agent's own permissions; each run is
 * audited and logged as a playground run, and does not count as the agent using its memories.
 */
export function RetrievalPlayground() {
  const agents = useAgents();
  const usable = useMemo(() => (agents.data ?? []).filter((a) => a.role !== "isolated"), [agents.data]);
  const [agentId, setAgentId] = useState("");
  const [message, setMessage] = useState("");
  const [mode, setMode] = useState<"auto" | "scopes">("auto");
  const [scopes, setScopes] = useState<RetrievalScope[]>(["memories", "documents", "interactions"]);
  const [limit, setLimit] = useState("10");
  const [showPrompt, setShowPrompt] = useState(false);
  const retrieve = useRetrieve();
  const result = retrieve.data;
  const ranFor = retrieve.variables;
  const agent = usable.find((a) => a.id === agentId);
  const clients = useClients();
  const ranAgent = usable.find((a) => a.id === ranFor?.agentId);
  const noTriggerReason = useMemo(() => {
    if (!ranFor) return "";
    if (ranFor.scopes) return "None: the scopes were chosen by hand.";
    if (isSmallTalk(ranFor.message)) return "None: a greeting, thanks or “ok” needs no remembered context, so nothing was searched.";
    // a field agent sees one client only: another client's name means nothing to it
    const text = ranFor.message.toLowerCase();
    const hidden = ranAgent?.kind === "field" ? (clients.data ?? []).find((c) => c.id !== ranAgent.clientId && text.includes(c.name.toLowerCase())) : undefined;
    if (hidden && ranAgent) {
      return `None: ${ranAgent.name} works for ${ranAgent.clientName ?? "one client"} only and cannot see ${hidden.name}, so that name does not trigger a search.`;
    }
    return `None: the message asks no question, names nobody ${ranAgent?.name ?? "the agent"} knows and refers to nothing earlier, so nothing was searched.`;
  }, [ranFor, ranAgent, clients.data]);
  const prompt = useAssembledContext(ranFor?.agentId ?? "", ranFor?.message ?? "", { enabled: showPrompt && Boolean(result) });

  const limitNumber = Number(limit);
  const limitError = Number.isInteger(limitNumber) && limitNumber >= 1 && limitNumber <= 50 ? null : "A whole number from 1 to 50";
  const canRun = Boolean(agentId && message.trim() && !limitError && (mode === "auto" || scopes.length));

  function run(e?: FormEvent) {
    e?.preventDefault();
    if (!canRun) return;
    setShowPrompt(false);
    retrieve.mutate({ agentId, message: message.trim(), limit: limitNumber, ...(mode === "scopes" ? { scopes } : {}) });
  }

  function toggleScope(scope: RetrievalScope) {
    setScopes((s) => (s.includes(scope) ? s.filter((x) => x !== scope) : RETRIEVAL_SCOPES.filter((x) => x === scope || s.includes(x))));
  }

  return (
    <>
      <PageHeader
        title="Retrieval playground"
        description="Type a message as an agent would receive it: see the smart trigger's level, the triggers that fired, every item retrieval finds with its score and source, and the exact context the agent gets. It runs with the agent's own permissions, is audited, and does not count as the agent using its memory."
      />
      <div className="space-y-6">
        <Card>
          <form onSubmit={run} aria-label="Retrieval playground" noValidate>
            <CardBody className="grid gap-5 lg:grid-cols-3">
              <div className="space-y-5">
                <Field label="Agent" required>
                  {agents.isPending ? (
                    <LoadingState variant="spinner" label="Loading agents…" className="py-2" />
                  ) : agents.isError ? (
                    <p className="text-sm text-red-600">{errorMessage(agents.error)}</p>
                  ) : (
                    <Select
                      value={agentId}
                      onChange={(e) => setAgentId(e.target.value)}
                      placeholder="Choose an agent…"
                      options={usable.map((a) => ({
                        value: a.id,
                        label: `${a.name} · ${a.kind} ${a.role}${a.clientName ? ` · ${a.clientName}` : ""}`,
                      }))}
                    />
                  )}
                </Field>
                {agent && (
                  <p className="text-xs text-slate-500">
                    {agent.kind === "field"
                      ? `Field agent: levels none / local / hq. Sees only ${agent.clientName ?? "its client"}'s data and the knowledge base, never team knowledge.`
                      : "Internal agent: levels none / local / shared (team knowledge)."}
                  </p>
                )}
                <Field label="Results" hint="1–50 items across every scope" error={limitError}>
                  <Input type="number" min={1} max={50} value={limit} onChange={(e) => setLimit(e.target.value)} className="w-24" />
                </Field>
              </div>
              <div className="space-y-5 lg:col-span-2">
                <Field label="Message" required hint="Ctrl+Enter runs it">
                  <Textarea
                    rows={4}
                    value={message}
                    onChange={(e) => setMessage(e.target.value)}
                    onKeyDown={(e) => {
                      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) run();
                    }}
                    placeholder="e.g. Didn't we already agree on weekly reports?"
                    maxLength={8000}
                  />
                </Field>
                <div className="flex flex-wrap gap-2">
                  {EXAMPLES.map((ex) => (
                    <button
                      key={ex}
                      type="button"
                      onClick={() => setMessage(ex)}
                      className="rounded-full bg-slate-100 px-2.5 py-1 text-xs text-slate-600 hover:bg-slate-200"
                    >
                      {ex}
                    </button>
                  ))}
                </div>
                <fieldset className="space-y-2">
                  <legend className="text-sm font-medium text-slate-700">Where to search</legend>
                  <div className="flex flex-wrap gap-4 text-sm text-slate-700">
                    <label className="inline-flex items-center gap-2">
                      <input type="radio" name="mode" checked={mode === "auto"} onChange={() => setMode("auto")} />
                      Let the smart trigger decide
                    </label>
                    <label className="inline-flex items-center gap-2">
                      <input type="radio" name="mode" checked={mode === "scopes"} onChange={() => setMode("scopes")} />
                      These scopes (skips the trigger)
                    </label>
                  </div>
                  {mode === "scopes" && (
                    <div className="grid gap-2 pt-1 sm:grid-cols-2">
                      {RETRIEVAL_SCOPES.map((s) => (
                        <label key={s} className="inline-flex items-start gap-2 text-sm text-slate-700">
                          <input type="checkbox" className="mt-0.5" checked={scopes.includes(s)} onChange={() => toggleScope(s)} />
                          <span>
                            {SCOPE_LABELS[s]} <span className="text-xs text-slate-500">— {SCOPE_HINTS[s]}</span>
                          </span>
                        </label>
                      ))}
                    </div>
                  )}
                </fieldset>
                <div className="flex justify-end">
                  <Button type="submit" disabled={!canRun} loading={retrieve.isPending}>
                    Retrieve
                  </Button>
                </div>
              </div>
            </CardBody>
          </form>
        </Card>

        {retrieve.isError && <Alert tone="error">{errorMessage(retrieve.error)}</Alert>}

        {result && (
          <>
            <Card>
              <CardHeader title="Smart trigger" description={`${result.tookMs.toFixed(1)} ms end to end, as measured by the server`} />
              <CardBody className="space-y-4">
                <div className="flex flex-wrap items-center gap-3">
                  <span className="text-sm text-slate-500">Level</span>
                  <span data-testid="retrieval-level">
                    <Badge tone={LEVEL_TONES[result.level]}>{result.level}</Badge>
                  </span>
                  <span className="text-sm text-slate-500">{LEVEL_LABELS[result.level]}</span>
                </div>
                <div>
                  <p className="text-sm text-slate-500">Triggers that fired</p>
                  {result.triggers.length ? (
                    <ul className="mt-1.5 flex flex-wrap gap-2" aria-label="Triggers">
                      {result.triggers.map((t) => (
                        <li key={`${t.kind}:${t.match}`} className="rounded-md bg-slate-100 px-2 py-1 text-xs text-slate-700">
                          <span className="font-medium">{TRIGGER_LABELS[t.kind] ?? t.kind}</span>: “{t.match}”
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <p className="mt-1 text-sm text-slate-700">
                      {noTriggerReason}
                    </p>
                  )}
                </div>
                <div>
                  <p className="text-sm text-slate-500">Scopes searched</p>
                  <p className="mt-1 text-sm text-slate-700">{result.scopes.length ? result.scopes.map((s) => SCOPE_LABELS[s]).join(", ") : "None"}</p>
                </div>
              </CardBody>
            </Card>

            <Card>
              <CardHeader title={`Items (${result.items.length})`} description="Best first. A score (0–1) weighs full-text relevance (BM25, against the best match) with vector similarity; a conversation turn also weighs its neighbouring turns. Items below the relevance floor are left out." />
              <RetrievedItems items={result.items} />
            </Card>

            <Card>
              <CardHeader
                title="Context"
                description="Exactly what POST /retrieve hands the agent to paste into its prompt."
                actions={result.context && <CopyButton value={result.context} label="Copy context" />}
              />
              <CardBody>
                {result.context ? (
                  <pre tabIndex={0} data-testid="retrieval-context" className="max-h-[32rem] overflow-auto rounded-md bg-slate-950 p-4 text-xs leading-relaxed whitespace-pre-wrap text-slate-100">
                    {result.context}
                  </pre>
                ) : (
                  <p className="text-sm text-slate-500" data-testid="retrieval-context-empty">
                    No context block: nothing was retrieved, so the agent answers from what it already has loaded.
                  </p>
                )}
              </CardBody>
            </Card>

            <Card>
              <CardHeader
                title="System prompt for this topic"
                description="GET /agents/{id}/context with the message as the topic: SOUL, scratchpad, current situation, 3 relevant + 2 recent memories, locked constants."
                actions={
                  !showPrompt ? (
                    <Button variant="secondary" size="sm" onClick={() => setShowPrompt(true)}>
                      Assemble
                    </Button>
                  ) : (
                    prompt.data && <CopyButton value={prompt.data.text} label="Copy prompt" />
                  )
                }
              />
              {showPrompt && (
                <CardBody>
                  {prompt.isPending ? (
                    <LoadingState variant="spinner" label="Assembling…" />
                  ) : prompt.isError ? (
                    <ErrorState error={prompt.error} onRetry={() => prompt.refetch()} retrying={prompt.isFetching} />
                  ) : (
                    <div className="space-y-3">
                      <p className="text-xs text-slate-500">
                        Memories chosen by {prompt.data.memorySelection === "recency" ? "recency only (no topic embedding)" : "relevance to the topic, then recency"}
                        {" · "}briefing {prompt.data.briefing.cached ? "from the 5-minute cache" : "built now"} · {prompt.data.tookMs.toFixed(1)} ms
                      </p>
                      <pre tabIndex={0} data-testid="assembled-context" className="max-h-[40rem] overflow-auto rounded-md bg-slate-950 p-4 text-xs leading-relaxed whitespace-pre-wrap text-slate-100">
                        {prompt.data.text || "(empty)"}
                      </pre>
                    </div>
                  )}
                </CardBody>
              )}
            </Card>
          </>
        )}
      </div>
    </>
  );
}
