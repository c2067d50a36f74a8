"use client";

import type { MouseEvent, ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/console/cn";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import type { Suggestion } from "@/lib/console/review-types";
import { confidenceTone, contactLabel, editedValue, formatConfidence, STATUS_TONE, VERDICT_LABEL, VERDICT_TONE } from "./labels";

/**
 * One suggestion as a compact row of the triage list: what would change (the proposal beside the
 * current fact), for whom, how sure, and the rules' verdict. The rest is in the detail pane (or,
 * on narrow screens, under the row once it is the current one: `details`).
 */
export function ReviewRow({
  suggestion: s,
  current,
  ticked,
  onCurrent,
  onTick,
  details,
}: {
  suggestion: Suggestion;
  current: boolean;
  ticked: boolean;
  onCurrent: () => void;
  /** bulk selection (pending ones, reviewers only); `range` when Shift was held */
  onTick?: (range: boolean) => void;
  details?: ReactNode;
}) {
  const who = contactLabel(s);
  // approved with the reviewer's edit: what was stored, not only what was proposed
  const editedTo = editedValue(s);
  return (
    <div
      data-testid="suggestion"
      data-suggestion-id={s.id}
      data-key={s.key}
      aria-current={current || undefined}
      onClick={onCurrent}
      // tints light enough that the rows' small grey and red text keeps its contrast (WCAG AA)
      className={cn("border-l-4 transition-colors", current ? "border-indigo-500 bg-indigo-50/20" : ticked ? "border-transparent bg-sky-50/60" : "border-transparent hover:bg-slate-50")}
    >
      <div className="flex items-start gap-3 px-4 py-2.5">
        {onTick && (
          <input
            type="checkbox"
            className="mt-1 size-4 shrink-0 rounded border-slate-300 text-indigo-600"
            checked={ticked}
            onChange={() => undefined}
            onClick={(e: MouseEvent<HTMLInputElement>) => {
              e.stopPropagation();
              onTick(e.shiftKey);
            }}
            aria-label={`Select ${s.key} for ${who}`}
          />
        )}
        <div className="min-w-0 flex-1">
          <div className="flex min-w-0 items-baseline gap-2">
            <code className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs font-semibold text-slate-800">{s.key}</code>
            <span className="min-w-0 truncate text-sm font-medium text-slate-900" data-testid="proposed-value" title={s.value}>
              {s.value}
            </span>
            {editedTo !== null ? (
              <span className="hidden min-w-0 shrink truncate text-xs text-amber-800 sm:inline" title={`Approved as: ${editedTo}`}>
                approved as “{editedTo}”
              </span>
            ) : (
              s.currentFact &&
              s.status !== "approved" && (
                <span className="hidden min-w-0 shrink truncate text-xs text-slate-500 sm:inline" title={`Current: ${s.currentFact.value}`}>
                  replaces “{s.currentFact.value}”
                </span>
              )
            )}
          </div>
          <p className="mt-0.5 truncate text-xs text-slate-500">
            <span className="font-medium text-slate-700">{who}</span> · {s.clientName ?? "HQ"} · by {s.proposedByName || s.proposedByType}{" "}
            <span title={formatDateTime(s.createdAt)}>{formatRelative(s.createdAt)}</span>
          </p>
        </div>
        <div className="flex shrink-0 flex-col items-end gap-1">
          <Badge tone={confidenceTone(s.confidence)}>{formatConfidence(s.confidence)}</Badge>
          {s.status === "pending" && s.verdict ? (
            <span className={cn("text-[11px] font-medium", VERDICT_TONE[s.verdict])}>{VERDICT_LABEL[s.verdict]}</span>
          ) : s.status !== "pending" ? (
            <Badge tone={STATUS_TONE[s.status]}>{s.status}</Badge>
          ) : null}
        </div>
      </div>
      {details}
    </div>
  );
}
