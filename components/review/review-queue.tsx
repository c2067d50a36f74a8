"use client";

import { useLayoutEffect, useMemo, useRef, useState } from "react";
import { useCanCurate } from "@/components/shell/current-user";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DataItems } from "@/components/ui/data-list";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { useToast } from "@/components/ui/toast";
import { errorMessage } from "@/lib/console/api";
import { useMediaQuery } from "@/lib/console/hooks/media-query";
import { useManagerPass, usePendingSuggestionCount, useSuggestionPages } from "@/lib/console/hooks/review";
import type { Suggestion } from "@/lib/console/review-types";
import { BulkDecisionDialog } from "./bulk-decision-dialog";
import { EditApproveDialog, RejectDialog } from "./decision-dialogs";
import { contactLabel, formatConfidence, queueCaption } from "./labels";
import { ReviewFilters } from "./review-filters";
import { ReviewRow } from "./review-row";
import { ReviewToolbar } from "./review-toolbar";
import { SuggestionDetail } from "./suggestion-detail";
import { HOLD_MS, useHeldDecisions } from "./use-held-decisions";
import { useReviewFilters } from "./use-review-filters";
import { useReviewKeys } from "./use-review-keys";
import { useSelection } from "./use-selection";

/** A page of the queue: enough to tick a day's batch at once (the bulk endpoint takes 200), windowed as it scrolls. */
const PAGE_SIZE = 100;

/**
 * The Review queue as a triage view: compact rows a page at a time (oldest pending first), the
 * current one in full in a pane beside them (under it on narrow screens), rows ticked with x or
 * Shift for a range, and decisions held a few seconds with Undo before they are sent.
 */
export function ReviewQueue() {
  const canReview = useCanCurate();
  const view = useReviewFilters();
  const list = useSuggestionPages(
    { status: view.status, clientId: view.clientId || undefined, verdict: view.verdict || undefined, q: view.q || undefined },
    { page: view.page, pageSize: PAGE_SIZE },
  );
  const held = useHeldDecisions();
  const rows = useMemo(() => list.rows.filter((s) => !held.hidden.has(s.id)), [list.rows, held.hidden]);
  const order = useMemo(() => rows.map((s) => s.id), [rows]);
  const selection = useSelection(order);
  const deciding = canReview && view.status === "pending";
  const wide = useMediaQuery("(min-width: 64rem)");
  const toast = useToast();
  const pass = useManagerPass();
  const allPending = usePendingSuggestionCount();

  // the current row; when it leaves the list (decided), the one that took its place
  const [currentId, setCurrentId] = useState<string | null>(null);
  const lastIndex = useRef(0);
  const found = currentId ? order.indexOf(currentId) : -1;
  const currentIndex = rows.length ? (found >= 0 ? found : Math.min(lastIndex.current, rows.length - 1)) : -1;
  useLayoutEffect(() => {
    lastIndex.current = Math.max(0, currentIndex);
  });
  const current = rows[currentIndex] ?? null;

  const [rejecting, setRejecting] = useState<Suggestion[] | null>(null);
  const [editing, setEditing] = useState<Suggestion | null>(null);
  const byId = useMemo(() => new Map(rows.map((s) => [s.id, s])), [rows]);
  /** what a decision applies to: the ticked rows, or else the current one */
  const targets = () => (selection.selected.length ? selection.selected.map((id) => byId.get(id)!) : current ? [current] : []);

  function approve(picked = targets()) {
    const ok = picked.filter((s) => s.verdict !== "refuse");
    const refused = picked.length - ok.length;
    if (!ok.length) {
      // too little confidence is not fixed by editing the value (Edit is off for it): only rejecting is left
      const editable = picked.some((s) => !s.flags.some((f) => f.code === "low_confidence"));
      if (refused === 1)
        toast.show({ tone: "warning", text: editable ? "The rules refuse this value: edit it (e) or reject it (r)." : "The rules refuse a suggestion this unsure: reject it (r)." });
      else if (refused)
        toast.show({
          tone: "warning",
          text: `The rules refuse all ${refused} selected values: ${editable ? "edit them one by one (e) or reject them (r)" : "they are too unsure, so reject them (r)"}.`,
        });
      return;
    }
    const stay = refused === 1 ? "; 1 that breaks a rule stays" : refused ? `; ${refused} that break a rule stay` : "";
    held.decide({
      ids: ok.map((s) => s.id),
      decision: "approve",
      label:
        ok.length === 1
          ? `Approved “${ok[0]!.key}” for ${contactLabel(ok[0]!)}${stay}`
          : `Approved ${ok.length} suggestions${stay}`,
    });
    selection.clear();
  }

  function reject(picked: Suggestion[], reason: string) {
    held.decide({
      ids: picked.map((s) => s.id),
      decision: "reject",
      reason,
      label: picked.length === 1 ? `Rejected “${picked[0]!.key}” for ${contactLabel(picked[0]!)}` : `Rejected ${picked.length} suggestions`,
    });
    selection.clear();
  }

  function move(step: 1 | -1, extend: boolean) {
    const to = rows[Math.min(rows.length - 1, Math.max(0, currentIndex + step))];
    if (!to) return;
    if (extend && deciding && current) selection.extend(to.id, current.id);
    setCurrentId(to.id);
  }

  const dialogsOpen = Boolean(rejecting || editing);
  useReviewKeys(
    {
      move,
      tick: (extend) => deciding && current && (extend ? selection.extend(current.id) : selection.toggle(current.id)),
      approve: () => deciding && approve(),
      reject: () => deciding && targets().length > 0 && setRejecting(targets()),
      edit: () => deciding && current && !current.flags.some((f) => f.code === "low_confidence") && setEditing(current),
      undo: () => held.undo(),
      clear: () => selection.clear(),
    },
    dialogsOpen,
  );

  const threshold = list.answer?.autoApproveThreshold;
  // decisions being held have left the queue already, in the counts too
  const heldHere = list.rows.length - rows.length;
  const known = list.total ?? (list.hasNext ? null : (view.page - 1) * PAGE_SIZE + list.rows.length);
  const total = known === null ? null : known - heldHere;
  const detail = (s: Suggestion) => (
    <SuggestionDetail
      suggestion={s}
      canReview={canReview}
      onApprove={() => approve([s])}
      onEdit={() => setEditing(s)}
      onReject={() => setRejecting([s])}
    />
  );

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
                    toast.show({
                      tone: "success",
                      text: `Manager pass: ${r.approved} approved, ${r.superseded} kept the current fact, ${r.rejected} rejected, ${r.left} left for review (threshold ${r.threshold}).`,
                    }),
                  onError: (err) => toast.show({ tone: "error", text: `The manager pass failed: ${errorMessage(err)}` }),
                })
              }
            >
              Run manager pass
            </Button>
          )
        }
      />

      <ReviewFilters view={view} />

      {view.status === "pending" && threshold !== undefined && (
        <p className="mb-4 text-sm text-slate-600" data-testid="threshold-note">
          The manager pass approves facts that pass every rule at {formatConfidence(threshold)} confidence or more; a person decides the rest, here.
          Each decision is sent {HOLD_MS / 1000} s after it is made, so Undo (<kbd className="font-mono">z</kbd>) takes it back before anything changes.
        </p>
      )}

      {deciding && selection.selected.length > 0 && (
        <ReviewToolbar
          count={selection.selected.length}
          onApprove={() => approve()}
          onReject={() => setRejecting(targets())}
          onClear={selection.clear}
        />
      )}

      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <Card>
          <DataItems
            list={{ ...list, rows, total: list.total === null ? null : list.total - heldHere }}
            onPage={view.setPage}
            noun={["suggestion", "suggestions"]}
            aria-label="Suggestions"
            activeIndex={currentIndex}
            estimateRowHeight={60}
            itemsClassName="divide-y divide-slate-100 [&>li]:scroll-mt-32"
            caption={
              <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2.5 text-xs text-slate-500">
                <span className="flex items-center gap-3">
                  {deciding && (
                    <input
                      type="checkbox"
                      className="size-4 rounded border-slate-300 text-indigo-600"
                      aria-label="Select all on this page"
                      checked={rows.length > 0 && selection.selected.length === rows.length}
                      onChange={(e) => (e.target.checked ? selection.set(order, true) : selection.clear())}
                    />
                  )}
                  <span data-testid="review-count">{queueCaption(total, view.status, rows.length)}</span>
                </span>
                {deciding && (
                  // keys help only where there is a keyboard: hidden on phones and touch screens
                  <span aria-label="Keyboard shortcuts" className="hidden sm:pointer-fine:inline">
                    <kbd className="font-mono">j</kbd>/<kbd className="font-mono">k</kbd> move · <kbd className="font-mono">x</kbd> select (
                    <kbd className="font-mono">⇧</kbd> range) · <kbd className="font-mono">a</kbd> approve · <kbd className="font-mono">e</kbd> edit ·{" "}
                    <kbd className="font-mono">r</kbd> reject · <kbd className="font-mono">z</kbd> undo
                  </span>
                )}
              </div>
            }
            renderItem={(s, index) => (
              <ReviewRow
                suggestion={s}
                current={index === currentIndex}
                ticked={selection.isTicked(s.id)}
                onCurrent={() => setCurrentId(s.id)}
                onTick={deciding ? (range) => (range ? selection.extend(s.id) : selection.toggle(s.id)) : undefined}
                details={!wide && index === currentIndex ? <div className="border-t border-indigo-100 bg-white px-4 py-3">{detail(s)}</div> : undefined}
              />
            )}
            empty={
              heldHere > 0 ? (
                // the page's rows are all decided and not yet sent: what follows them shows once they are
                <EmptyState
                  title={`All ${heldHere} on this page ${heldHere === 1 ? "is" : "are"} decided`}
                  description={`${heldHere === 1 ? "The decision is" : "The decisions are"} sent within ${HOLD_MS / 1000} s; the suggestions after ${heldHere === 1 ? "it" : "them"} then show here. Undo (z) takes ${heldHere === 1 ? "it" : "them"} back before.`}
                />
              ) : (
                <EmptyState
                  title={view.status !== "pending" ? `No ${view.status} suggestions` : view.filtered ? "Nothing waiting here" : "Nothing waiting for review"}
                  description={
                    view.status === "pending" && view.filtered && allPending > 0
                      ? `${allPending} suggestion${allPending === 1 ? "" : "s"} ${allPending === 1 ? "waits" : "wait"} for review under other filters.`
                      : view.filtered
                        ? "No suggestion matches these filters."
                        : view.status === "pending"
                          ? "When agents propose facts about contacts they appear here."
                          : undefined
                  }
                  action={
                    view.filtered ? (
                      <Button variant="secondary" size="sm" onClick={view.clear}>
                        Clear the filters
                      </Button>
                    ) : undefined
                  }
                />
              )
            }
          />
        </Card>
        {wide && current && (
          <Card className="sticky top-20 p-4" data-testid="detail-pane">
            {detail(current)}
          </Card>
        )}
      </div>

      <RejectDialog
        suggestion={rejecting?.length === 1 ? rejecting[0]! : null}
        onClose={() => setRejecting(null)}
        onReject={async (reason) => reject(rejecting!, reason)}
      />
      <BulkDecisionDialog
        decision={rejecting && rejecting.length > 1 ? "reject" : null}
        suggestions={rejecting ?? []}
        onClose={() => setRejecting(null)}
        onConfirm={async (_decision, reason) => reject(rejecting!, reason ?? "")}
      />
      <EditApproveDialog
        suggestion={editing}
        onClose={() => setEditing(null)}
        onApprove={async (value) => {
          held.decide({ ids: [editing!.id], decision: "approve", value, label: `Approved “${editing!.key}” as “${value}” for ${contactLabel(editing!)}` });
        }}
      />
    </>
  );
}
