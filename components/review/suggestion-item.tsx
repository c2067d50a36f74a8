"use client";

import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/console/cn";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import type { Suggestion } from "@/lib/console/review-types";
import { confidenceTone, flagLabel, flagTone, formatConfidence, STATUS_TONE } from "./labels";

export interface SuggestionItemProps {
  suggestion: Suggestion;
  selected: boolean;
  canReview: boolean;
  busy: boolean;
  onSelect: () => void;
  onApprove: () => void;
  onEdit: () => void;
  onReject: () => void;
  /** bulk selection (pending suggestions) */
  checked?: boolean;
  onCheck?: (checked: boolean) => void;
  /** the source message is shown once for its group, not on each suggestion */
  hideSource?: boolean;
}

/** One suggestion in the Review queue: the proposal beside the current fact, its source and the validator's flags. */
export function SuggestionItem({ suggestion: s, selected, canReview, busy, onSelect, onApprove, onEdit, onReject, checked, onCheck, hideSource }: SuggestionItemProps) {
  const refused = s.verdict === "refuse";
  const lowConfidence = s.flags.some((f) => f.code === "low_confidence");
  const contactLabel = s.contact.name ?? (s.contact.optOut ? "Opted-out contact" : "Unnamed contact");
  // the reviewer changed the value before approving: the fact it wrote differs from the proposal
  const editedTo = s.status === "approved" && s.currentFact && s.currentFact.id === s.factId && s.currentFact.value !== s.value ? s.currentFact.value : null;
  return (
    <li
      data-testid="suggestion"
      data-suggestion-id={s.id}
      data-key={s.key}
      aria-current={selected || undefined}
      onClick={onSelect}
      className={cn(
        "cursor-default border-l-4 px-5 py-4 transition-colors",
        selected ? "border-indigo-500 bg-indigo-50/50" : "border-transparent hover:bg-slate-50",
      )}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          {onCheck && (
            <input
              type="checkbox"
              className="mt-1 size-4 rounded border-slate-300 text-indigo-600"
              checked={Boolean(checked)}
              onChange={(e) => onCheck(e.target.checked)}
              onClick={(e) => e.stopPropagation()}
              aria-label={`Select ${s.key} for ${contactLabel}`}
            />
          )}
          <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs font-semibold text-slate-800">{s.key}</code>
            <span className="text-sm text-slate-500">for</span>
            <Link href={`/contacts/${s.contactId}`} className="text-sm font-medium text-slate-900 hover:text-indigo-600" onClick={(e) => e.stopPropagation()}>
              {contactLabel}
            </Link>
            <span className="text-xs text-slate-500">{s.clientName ?? "HQ"}</span>
          </div>
          <p className="mt-1 text-xs text-slate-500">
            Proposed by <span className="font-medium text-slate-700">{s.proposedByName || s.proposedByType}</span>{" "}
            <span title={formatDateTime(s.createdAt)}>{formatRelative(s.createdAt)}</span>
          </p>
          </div>
        </div>
        <div className="flex items-center gap-2">
          <Badge tone={confidenceTone(s.confidence)}>confidence {formatConfidence(s.confidence)}</Badge>
          {s.status !== "pending" && <Badge tone={STATUS_TONE[s.status]}>{s.status}</Badge>}
          {editedTo !== null && (
            <Badge tone="amber">edited before approval</Badge>
          )}
        </div>
      </div>

      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <div className="rounded-md border border-slate-200 bg-white px-3 py-2">
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">Current fact</p>
          {s.currentFact ? (
            <p className="mt-1 text-sm break-words text-slate-700">
              {s.currentFact.value} <span className="text-xs text-slate-500">({formatConfidence(s.currentFact.confidence)})</span>
            </p>
          ) : (
            <p className="mt-1 text-sm text-slate-500 italic">none yet</p>
          )}
        </div>
        <div className={cn("rounded-md border px-3 py-2", refused ? "border-red-200 bg-red-50/40" : "border-indigo-200 bg-white")}>
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">Proposed</p>
          <p className="mt-1 text-sm font-medium break-words text-slate-900" data-testid="proposed-value">
            {s.value}
          </p>
          {editedTo !== null && (
            <p className="mt-1 text-xs text-amber-800">
              Approved as <span className="font-medium">{editedTo}</span>
            </p>
          )}
        </div>
      </div>

      {s.flags.length > 0 && (
        <ul className="mt-3 space-y-1" aria-label="Validator flags">
          {s.flags.map((f, i) => (
            <li key={i} className="flex items-start gap-2 text-xs text-slate-600">
              <Badge tone={flagTone(f)}>{flagLabel(f)}</Badge>
              <span className="pt-0.5">{f.message}</span>
            </li>
          ))}
        </ul>
      )}

      {s.interaction && !hideSource && (
        <blockquote className="mt-3 border-l-2 border-slate-200 pl-3 text-xs text-slate-600">
          <span className="font-medium text-slate-500">{s.interaction.channel ?? "interaction"}</span>
          {s.interaction.occurredAt && <span className="text-slate-500"> · {formatRelative(s.interaction.occurredAt)}</span>}
          <span className="mt-0.5 line-clamp-3 block whitespace-pre-wrap">{s.interaction.excerpt}</span>
        </blockquote>
      )}

      {s.status !== "pending" ? (
        <p className="mt-3 text-xs text-slate-500">
          {s.reason && <span className="text-slate-700">{s.reason} · </span>}
          {s.reviewedByName ? `by ${s.reviewedByName} ` : ""}
          {s.reviewedAt && <span title={formatDateTime(s.reviewedAt)}>{formatRelative(s.reviewedAt)}</span>}
        </p>
      ) : (
        canReview && (
          <div className="mt-3 flex flex-wrap gap-2" onClick={(e) => e.stopPropagation()}>
            <Button size="sm" onClick={onApprove} disabled={busy || refused} title={refused ? "The rules refuse this value; edit it or reject it" : "Approve (a)"}>
              Approve
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={onEdit}
              disabled={busy || lowConfidence}
              title={lowConfidence ? "Editing the value cannot raise its confidence; reject it" : "Edit the value, then approve (e)"}
            >
              Edit &amp; approve
            </Button>
            <Button size="sm" variant="danger-ghost" onClick={onReject} disabled={busy} title="Reject with a reason (r)">
              Reject
            </Button>
          </div>
        )
      )}
    </li>
  );
}
