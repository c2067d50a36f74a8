"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { useCanCurate } from "@/components/shell/current-user";
import { Alert, type AlertTone } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { Select } from "@/components/ui/select";
import { errorMessage } from "@/lib/client/api";
import { useClients } from "@/lib/client/hooks/agents";
import { useBulkReview, useManagerPass, useReviewSuggestion, useSuggestions } from "@/lib/client/hooks/review";
import { SUGGESTION_STATUSES, type Suggestion, type SuggestionStatus } from "@/lib/client/review-types";
import { EditApproveDialog, RejectDialog } from "./decision-dialogs";
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
  const [bulkOpen, setBulkOpen] = useState(false);
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

  const selectedIndex = Math.max(0, visible.findIndex((s) => s.id === selectedId));
  const selected = visible[selectedIndex] ?? null;
  const approvable = status === "pending" ? visible.filter((s) => s.verdict !== "refuse") : [];

  async function decide(s: Suggestion, body: { decision: "approve" | "reject"; reason?: string; value?: string }) {
    const next = visible[selectedIndex + 1]?.id ?? visible[selectedIndex - 1]?.id ?? null;
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
  const keys = useRef({ visible, selectedIndex, selected, canReview, status, approve, dialogsOpen: false });
  keys.current = { visible, selectedIndex, selected, canReview, status, approve, dialogsOpen: Boolean(rejecting || editing || bulkOpen) };

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

      <div className="mb-4 flex flex-wrap items-end gap-3" role="group" aria-label="Filters">
        <label className="text-xs font-medium text-slate-600">
          Status
          <Select className="mt-1 w-36" value={status} onChange={(e) => setStatus(e.target.value as SuggestionStatus)} options={SUGGESTION_STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) }))} />
        </label>
        <label className="text-xs font-medium text-slate-600">
          Client
          <Select className="mt-1 w-48" value={clientId} onChange={(e) => setClientId(e.target.value)} options={clientOptions} />
        </label>
        {status === "pending" && (
          <label className="text-xs font-medium text-slate-600">
            Verdict
            <Select className="mt-1 w-44" value={verdict} onChange={(e) => setVerdict(e.target.value as VerdictFilter)} options={VERDICTS} />
          </label>
        )}
        <label className="text-xs font-medium text-slate-600">
          Search
          <Input className="mt-1 w-56" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="key, value, contact, agent" />
        </label>
        {canReview && status === "pending" && approvable.length > 0 && (
          <Button variant="secondary" className="ml-auto" onClick={() => setBulkOpen(true)}>
            Approve {approvable.length} shown
          </Button>
        )}
      </div>

      {notice && (
        <Alert tone={notice.tone} className="mb-4">
          <div className="flex items-start justify-between gap-3">
            <span>{notice.text}</span>
            <button type="button" className="text-xs font-medium underline" onClick={() => setNotice(null)}>
              Dismiss
            </button>
          </div>
        </Alert>
      )}

      <Card>
        {suggestions.isPending ? (
          <LoadingState label="Loading suggestions…" rows={6} />
        ) : suggestions.isError ? (
          <ErrorState error={suggestions.error} onRetry={() => suggestions.refetch()} retrying={suggestions.isFetching} />
        ) : visible.length === 0 ? (
          <EmptyState
            title={status === "pending" ? "Nothing waiting for review" : `No ${status} suggestions`}
            description={
              (suggestions.data?.length ?? 0) > 0
                ? "No suggestion matches these filters."
                : status === "pending"
                  ? "When agents propose facts about contacts they appear here."
                  : undefined
            }
          />
        ) : (
          <>
            <div className="flex items-center justify-between border-b border-slate-200 px-5 py-2.5 text-xs text-slate-500">
              <span>
                {visible.length} suggestion{visible.length === 1 ? "" : "s"}
                {status === "pending" ? ", oldest first" : ""}
              </span>
              {canReview && status === "pending" && (
                <span aria-label="Keyboard shortcuts">
                  <kbd className="font-mono">j</kbd>/<kbd className="font-mono">k</kbd> move · <kbd className="font-mono">a</kbd> approve ·{" "}
                  <kbd className="font-mono">e</kbd> edit · <kbd className="font-mono">r</kbd> reject
                </span>
              )}
            </div>
            <ul className="divide-y divide-slate-100" aria-label="Suggestions">
              {visible.map((s, i) => (
                <SuggestionItem
                  key={s.id}
                  suggestion={s}
                  selected={i === selectedIndex}
                  canReview={canReview}
                  busy={review.isPending && review.variables?.id === s.id}
                  onSelect={() => setSelectedId(s.id)}
                  onApprove={() => approve(s)}
                  onEdit={() => setEditing(s)}
                  onReject={() => setRejecting(s)}
                />
              ))}
            </ul>
          </>
        )}
      </Card>

      <RejectDialog suggestion={rejecting} onClose={() => setRejecting(null)} onReject={(reason) => decide(rejecting!, { decision: "reject", reason })} />
      <EditApproveDialog suggestion={editing} onClose={() => setEditing(null)} onApprove={(value) => decide(editing!, { decision: "approve", value })} />
      <ConfirmDialog
        open={bulkOpen}
        onClose={() => setBulkOpen(false)}
        tone="primary"
        title={`Approve ${approvable.length} suggestion${approvable.length === 1 ? "" : "s"}?`}
        description="Each is checked again against the rules; any that now breaks one, or loses to a fact with higher confidence, is reported below instead."
        confirmLabel="Approve all"
        onConfirm={async () => {
          const r = await bulk.mutateAsync({ ids: approvable.map((s) => s.id), decision: "approve" });
          const failures = r.results.filter((x) => !x.ok).map((x) => x.error?.message).filter(Boolean);
          setNotice({
            tone: r.failed ? "warning" : "success",
            text: `Approved ${r.succeeded} of ${r.results.length}.${failures.length ? ` Not approved: ${failures.slice(0, 3).join("; ")}` : ""}`,
          });
        }}
      />
    </>
  );
}
