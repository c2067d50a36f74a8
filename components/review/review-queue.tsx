"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { useCanCurate } from "@/components/shell/current-user";
import { Alert, type AlertTone } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { FilterBar } from "@/components/ui/filter-bar";
import { Input } from "@/components/ui/input";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { Select } from "@/components/ui/select";
import { errorMessage } from "@/lib/console/api";
import { useClients } from "@/lib/console/hooks/agents";
import { useBulkReview, useManagerPass, usePendingSuggestionCount, useReviewSuggestion, useSuggestions } from "@/lib/console/hooks/review";
import { SUGGESTION_STATUSES, type Suggestion, type SuggestionStatus } from "@/lib/console/review-types";
import { BulkDecisionDialog, type BulkDecision } from "./bulk-decision-dialog";
import { EditApproveDialog, RejectDialog } from "./decision-dialogs";
import { countCaption } from "./labels";
import { SuggestionItem } from "./suggestion-item";

type VerdictFilter = "" | "approve" | "review" | "refuse";

const VERDICTS: { value: VerdictFilter; label: string }[] = [
  { value: "", label: "Any verdict" },
  { value: "approve", label: "Passes every rule" },
  { value: "review", label: "Needs a person" },
  { value: "refuse", label: "Breaks a rule" },
];

const isTyping = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));

/**
 * The Review queue, built for speed: pending suggestions oldest first, each with the current fact
 * beside it, its confidence, proposer, source excerpt and the validator's flags. Keyboard: j/k
 * move, a approves, e edits and approves, r rejects with a reason.
 */
export function ReviewQueue() {
  const canReview = useCanCurate();
  const [status, setStatus] = useState<SuggestionStatus>("pending");
  const [clientId, setClientId] = useState("");
  const [verdict, setVerdict] = useState<VerdictFilter>("");
  const [search, setSearch] = useState("");
  const suggestions = useSuggestions({ status, clientId: clientId || undefined });
  const clients = useClients();

  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<Suggestion | null>(null);
  const [editing, setEditing] = useState<Suggestion | null>(null);
  const [bulkOpen, setBulkOpen] = useState<BulkDecision | null>(null);
  const [checked, setChecked] = useState<Set<string>>(() => new Set());
  const [notice, setNotice] = useState<{ tone: AlertTone; text: string } | null>(null);
  const review = useReviewSuggestion();
  const bulk = useBulkReview();
  const pass = useManagerPass();

  const visible = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (suggestions.data ?? []).filter(
      (s) =>
        (!verdict || s.verdict === verdict) &&
        (!needle || [s.key, s.value, s.contact.name ?? "", s.proposedByName].some((t) => t.toLowerCase().includes(needle))),
    );
  }, [suggestions.data, verdict, search]);

  // one group per contact and source message, so the message is shown once above what came from it
  const groups = useMemo(() => {
    const byKey = new Map<string, { key: string; first: Suggestion; items: Suggestion[] }>();
    for (const s of visible) {
      const key = `${s.contactId}|${s.interactionId ?? ""}`;
      const group = byKey.get(key);
      if (group) group.items.push(s);
      else byKey.set(key, { key, first: s, items: [s] });
    }
    return [...byKey.values()];
  }, [visible]);
  const ordered = useMemo(() => groups.flatMap((g) => g.items), [groups]);
  // every pending suggestion, whatever the filters: "nothing here" must not read as "nothing anywhere"
  const allPending = usePendingSuggestionCount();
  const filtered = Boolean(clientId || verdict || search.trim());
  const clearFilters = () => {
    setClientId("");
    setVerdict("");
    setSearch("");
  };

  const selectedIndex = Math.max(0, ordered.findIndex((s) => s.id === selectedId));
  const selected = ordered[selectedIndex] ?? null;
  const picked = ordered.filter((s) => checked.has(s.id));

  /** A filter change starts over: the old feedback and ticks belonged to another list. */
  function changeFilter(apply: () => void) {
    apply();
    setNotice(null);
    setChecked(new Set());
  }

  function check(ids: string[], on: boolean) {
    setChecked((prev) => {
      const next = new Set(prev);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }

  async function decide(s: Suggestion, body: { decision: "approve" | "reject"; reason?: string; value?: string }) {
    const next = ordered[selectedIndex + 1]?.id ?? ordered[selectedIndex - 1]?.id ?? null;
    const result = await review.mutateAsync({ id: s.id, ...body });
    setSelectedId(next);
    const outcome = result.suggestion.status;
    setNotice({
      tone: outcome === "rejected" ? "info" : "success",
      text:
        outcome === "superseded"
          ? `Kept the current “${s.key}”: ${result.suggestion.reason ?? "it has higher confidence"}`
          : `${outcome === "approved" ? "Approved" : "Rejected"} “${s.key}” for ${s.contact.name ?? "the contact"}`,
    });
    return result;
  }

  async function approve(s: Suggestion) {
    try {
      await decide(s, { decision: "approve" });
    } catch (err) {
      setNotice({ tone: "error", text: `Couldn't approve “${s.key}”: ${errorMessage(err)}` });
    }
  }

  // the latest state for the keyboard handler, which is bound once
  const keys = useRef({ visible: ordered, selectedIndex, selected, canReview, status, approve, dialogsOpen: false });
  keys.current = { visible: ordered, selectedIndex, selected, canReview, status, approve, dialogsOpen: Boolean(rejecting || editing || bulkOpen) };

  useEffect(() => {
    function onKeyDown(e: KeyboardEvent) {
      const k = keys.current;
      if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey || k.dialogsOpen || isTyping(e.target)) return;
      if (e.key === "j" || e.key === "k") {
        const to = k.visible[Math.min(k.visible.length - 1, Math.max(0, k.selectedIndex + (e.key === "j" ? 1 : -1)))];
        if (to) {
          e.preventDefault();
          setSelectedId(to.id);
          document.querySelector(`[data-suggestion-id="${to.id}"]`)?.scrollIntoView({ block: "nearest" });
        }
        return;
      }
      if (!k.selected || !k.canReview || k.status !== "pending") return;
      if (e.key === "a") {
        e.preventDefault();
        if (k.selected.verdict !== "refuse") void k.approve(k.selected);
      } else if (e.key === "r") {
        e.preventDefault();
        setRejecting(k.selected);
      } else if (e.key === "e") {
        e.preventDefault();
        if (!k.selected.flags.some((f) => f.code === "low_confidence")) setEditing(k.selected);
      }
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  const clientOptions = [
    { value: "", label: "All clients" },
    { value: "hq", label: "HQ's own contacts" },
    ...(clients.data ?? []).map((c) => ({ value: c.id, label: c.name })),
  ];

  return (
    <>
      <PageHeader
        title="Review queue"
        description="Facts that agents proposed, waiting for the memory manager. Only confident, clean and business-relevant facts become canonical; the rules run again on every approval."
        actions={
          canReview && (
            <Button
              variant="secondary"
              loading={pass.isPending}
              onClick={() =>
                pass.mutate(undefined, {
                  onSuccess: (r) =>
                    setNotice({
                      tone: "success",
                      text: `Manager pass: ${r.approved} approved, ${r.superseded} kept the current fact, ${r.rejected} rejected, ${r.left} left for review (threshold ${r.threshold}).`,
                    }),
                  onError: (err) => setNotice({ tone: "error", text: `The manager pass failed: ${errorMessage(err)}` }),
                })
              }
            >
              Run manager pass
            </Button>
          )
        }
      />

      <div role="group" aria-label="Filters">
        <FilterBar
          active={[status !== "pending", clientId, verdict].filter(Boolean).length}
          primary={
            <label className="text-xs font-medium text-slate-600">
              Search
              <Input className="mt-1 w-64" type="search" value={search} onChange={(e) => changeFilter(() => setSearch(e.target.value))} placeholder="Key, value, contact or agent" />
            </label>
          }
        >
          <label className="text-xs font-medium text-slate-600">
            Status
            <Select className="mt-1 w-36" value={status} onChange={(e) => changeFilter(() => setStatus(e.target.value as SuggestionStatus))} options={SUGGESTION_STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) }))} />
          </label>
          <label className="text-xs font-medium text-slate-600">
            Client
            <Select className="mt-1 w-48" value={clientId} onChange={(e) => changeFilter(() => setClientId(e.target.value))} options={clientOptions} />
          </label>
          {status === "pending" && (
            <label className="text-xs font-medium text-slate-600">
              Verdict
              <Select className="mt-1 w-44" value={verdict} onChange={(e) => changeFilter(() => setVerdict(e.target.value as VerdictFilter))} options={VERDICTS} />
            </label>
          )}
        </FilterBar>
      </div>

      {canReview && status === "pending" && picked.length > 0 && (
        <div className="sticky top-16 z-10 mb-4 flex flex-wrap items-center gap-2 rounded-lg bg-slate-900 px-4 py-2.5 text-sm text-white shadow-lg" role="region" aria-label="Bulk actions">
          <span className="mr-auto font-medium">{picked.length === 1 ? "1 suggestion selected" : `${picked.length} suggestions selected`}</span>
          <Button size="sm" onClick={() => setBulkOpen("approve")}>
            Approve selected…
          </Button>
          <Button size="sm" variant="danger" onClick={() => setBulkOpen("reject")}>
            Reject selected…
          </Button>
          <Button size="sm" variant="ghost" className="text-white hover:bg-slate-800 hover:text-white" onClick={() => setChecked(new Set())}>
            Clear
          </Button>
        </div>
      )}

      {notice && (
        // feedback stays in view next to where the reviewer works, however far down the list they are
        <div className="fixed inset-x-4 bottom-4 z-40 mx-auto max-w-xl sm:inset-x-auto sm:right-6 sm:left-auto">
          <Alert tone={notice.tone} className="shadow-lg">
            <div className="flex items-start justify-between gap-3">
              <span>{notice.text}</span>
              <button type="button" className="text-xs font-medium underline" onClick={() => setNotice(null)}>
                Dismiss
              </button>
            </div>
          </Alert>
        </div>
      )}

      <Card>
        {suggestions.isPending ? (
          <LoadingState label="Loading suggestions…" rows={6} />
        ) : suggestions.isError ? (
          <ErrorState error={suggestions.error} onRetry={() => suggestions.refetch()} retrying={suggestions.isFetching} />
        ) : visible.length === 0 ? (
          <EmptyState
            title={status !== "pending" ? `No ${status} suggestions` : filtered ? "Nothing waiting here" : "Nothing waiting for review"}
            description={
              status === "pending" && filtered && allPending > 0
                ? `${allPending} suggestion${allPending === 1 ? "" : "s"} ${allPending === 1 ? "waits" : "wait"} for review under other filters.`
                : (suggestions.data?.length ?? 0) > 0 || filtered
                  ? "No suggestion matches these filters."
                  : status === "pending"
                    ? "When agents propose facts about contacts they appear here."
                    : undefined
            }
            action={
              filtered ? (
                <Button variant="secondary" size="sm" onClick={() => changeFilter(clearFilters)}>
                  Clear the filters
                </Button>
              ) : undefined
            }
          />
        ) : (
          <>
            <div className="flex items-center justify-between border-b border-slate-200 px-5 py-2.5 text-xs text-slate-500">
              <span className="flex items-center gap-3">
                {canReview && status === "pending" && (
                  <input
                    type="checkbox"
                    className="size-4 rounded border-slate-300 text-indigo-600"
                    aria-label="Select all shown"
                    checked={picked.length === ordered.length}
                    onChange={(e) => check(ordered.map((s) => s.id), e.target.checked)}
                  />
                )}
                <span data-testid="review-count">{countCaption(visible)}</span>
                {status === "pending" ? ", oldest first" : ""}
              </span>
              {canReview && status === "pending" && (
                // keys help only where there is a keyboard: hidden on phones and touch screens
                <span aria-label="Keyboard shortcuts" className="hidden sm:pointer-fine:inline">
                  <kbd className="font-mono">j</kbd>/<kbd className="font-mono">k</kbd> move · <kbd className="font-mono">a</kbd> approve ·{" "}
                  <kbd className="font-mono">e</kbd> edit · <kbd className="font-mono">r</kbd> reject
                </span>
              )}
            </div>
            <div className="divide-y divide-slate-200" aria-label="Suggestions by contact and message" role="list">
              {groups.map((g) => (
                <section key={g.key} role="listitem" aria-label={`${g.first.contact.name ?? "Contact"}: ${g.items.length} suggestion${g.items.length === 1 ? "" : "s"}`} data-testid="suggestion-group">
                  <div className="flex items-start gap-3 bg-slate-50 px-5 py-2.5">
                    {canReview && status === "pending" && (
                      <input
                        type="checkbox"
                        className="mt-0.5 size-4 rounded border-slate-300 text-indigo-600"
                        aria-label={`Select all from this message to ${g.first.contact.name ?? "the contact"}`}
                        checked={g.items.every((s) => checked.has(s.id))}
                        onChange={(e) => check(g.items.map((s) => s.id), e.target.checked)}
                      />
                    )}
                    <div className="min-w-0 text-xs text-slate-600">
                      <p>
                        <span className="font-semibold text-slate-800">{g.first.contact.name ?? "Opted-out contact"}</span>
                        <span className="text-slate-500"> · {g.first.clientName ?? "HQ"} · {g.items.length === 1 ? "1 suggestion" : `${g.items.length} suggestions`}</span>
                      </p>
                      {g.first.interaction ? (
                        <blockquote className="mt-1 border-l-2 border-slate-300 pl-2 whitespace-pre-wrap text-slate-700" data-testid="group-source">
                          <span className="font-medium text-slate-500">{g.first.interaction.channel ?? "message"}:</span> {g.first.interaction.excerpt}
                        </blockquote>
                      ) : (
                        <p className="mt-0.5 text-slate-500 italic">No source message recorded</p>
                      )}
                    </div>
                  </div>
                  <ul className="divide-y divide-slate-100">
                    {g.items.map((s) => (
                      <SuggestionItem
                        key={s.id}
                        suggestion={s}
                        selected={s.id === selected?.id}
                        canReview={canReview}
                        busy={review.isPending && review.variables?.id === s.id}
                        onSelect={() => setSelectedId(s.id)}
                        onApprove={() => approve(s)}
                        onEdit={() => setEditing(s)}
                        onReject={() => setRejecting(s)}
                        hideSource
                        checked={checked.has(s.id)}
                        onCheck={canReview && status === "pending" ? (on) => check([s.id], on) : undefined}
                      />
                    ))}
                  </ul>
                </section>
              ))}
            </div>
          </>
        )}
      </Card>

      <RejectDialog suggestion={rejecting} onClose={() => setRejecting(null)} onReject={(reason) => decide(rejecting!, { decision: "reject", reason })} />
      <EditApproveDialog suggestion={editing} onClose={() => setEditing(null)} onApprove={(value) => decide(editing!, { decision: "approve", value })} />
      <BulkDecisionDialog
        decision={bulkOpen}
        suggestions={picked}
        onClose={() => setBulkOpen(null)}
        onConfirm={async (decision, reason) => {
          const r = await bulk.mutateAsync({ ids: picked.map((s) => s.id), decision, ...(reason ? { reason } : {}) });
          const failures = r.results.filter((x) => !x.ok).map((x) => x.error?.message).filter(Boolean);
          setChecked(new Set());
          setNotice({
            tone: r.failed ? "warning" : "success",
            text: `${decision === "approve" ? "Approved" : "Rejected"} ${r.succeeded} of ${r.results.length}.${failures.length ? ` Not done: ${failures.slice(0, 3).join("; ")}` : ""}`,
          });
        }}
      />
    </>
  );
}
