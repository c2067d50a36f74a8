"use client";

import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/console/cn";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import type { Suggestion } from "@/lib/console/review-types";
import { confidenceTone, contactLabel, editedValue, flagLabel, flagTone, formatConfidence, SAID_ONCE, STATUS_TONE } from "./labels";

/**
 * The current suggestion in full: the proposal beside the fact it would replace, the validator's
 * flags, the message it came from, and the decisions (with their keys). The auto-approve threshold's
 * flag is a badge here; its sentence is said once above the queue.
 */
export function SuggestionDetail({
  suggestion: s,
  canReview,
  onApprove,
  onEdit,
  onReject,
}: {
  suggestion: Suggestion;
  canReview: boolean;
  onApprove: () => void;
  onEdit: () => void;
  onReject: () => void;
}) {
  const refused = s.verdict === "refuse";
  const lowConfidence = s.flags.some((f) => f.code === "low_confidence");
  // the reviewer changed the value before approving: the fact it wrote differs from the proposal
  const editedTo = editedValue(s);
  return (
    <div className="space-y-3 text-sm" data-testid="suggestion-detail" aria-label={`${s.key} for ${contactLabel(s)}`} role="region">
      <div className="flex flex-wrap items-center gap-2">
        <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs font-semibold text-slate-800">{s.key}</code>
        <Link href={`/contacts/${s.contactId}`} className="font-medium text-slate-900 hover:text-indigo-600">
          {contactLabel(s)}
        </Link>
        <span className="text-xs text-slate-500">{s.clientName ?? "HQ"}</span>
        <Badge tone={confidenceTone(s.confidence)}>confidence {formatConfidence(s.confidence)}</Badge>
        {s.status !== "pending" && <Badge tone={STATUS_TONE[s.status]}>{s.status}</Badge>}
        {editedTo !== null && <Badge tone="amber">edited before approval</Badge>}
      </div>
      <p className="text-xs text-slate-500">
        Proposed by <span className="font-medium text-slate-700">{s.proposedByName || s.proposedByType}</span>{" "}
        <span title={formatDateTime(s.createdAt)}>{formatRelative(s.createdAt)}</span>
      </p>

      <div className="grid gap-2 sm:grid-cols-2">
        <div className="rounded-md border border-slate-200 bg-white px-3 py-2">
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">Current fact</p>
          {s.currentFact ? (
            <p className="mt-1 break-words text-slate-700">
              {s.currentFact.value} <span className="text-xs text-slate-500">({formatConfidence(s.currentFact.confidence)})</span>
            </p>
          ) : (
            <p className="mt-1 text-slate-500 italic">none yet</p>
          )}
        </div>
        <div className={cn("rounded-md border px-3 py-2", refused ? "border-red-200 bg-red-50/40" : "border-indigo-200 bg-white")}>
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">Proposed</p>
          <p className="mt-1 font-medium break-words text-slate-900">{s.value}</p>
          {editedTo !== null && (
            <p className="mt-1 text-xs text-amber-800">
              Approved as <span className="font-medium">{editedTo}</span>
            </p>
          )}
        </div>
      </div>

      {s.flags.length > 0 && (
        <ul className="space-y-1" aria-label="Validator flags">
          {s.flags.map((f, i) => (
            <li key={i} className="flex items-start gap-2 text-xs text-slate-600">
              <Badge tone={flagTone(f)}>{flagLabel(f)}</Badge>
              {!SAID_ONCE.has(f.code) && <span className="pt-0.5">{f.message}</span>}
            </li>
          ))}
        </ul>
      )}

      {s.interaction ? (
        <blockquote className="border-l-2 border-slate-300 pl-3 text-xs text-slate-600" data-testid="suggestion-source">
          <span className="font-medium text-slate-500">{s.interaction.channel ?? "message"}</span>
          {s.interaction.occurredAt && <span className="text-slate-500"> · {formatRelative(s.interaction.occurredAt)}</span>}
          <span className="mt-0.5 line-clamp-6 block whitespace-pre-wrap">{s.interaction.excerpt}</span>
        </blockquote>
      ) : (
        <p className="text-xs text-slate-500 italic">No source message recorded</p>
      )}

      {s.status !== "pending" ? (
        <p className="text-xs text-slate-500">
          {s.reason && <span className="text-slate-700">{s.reason} · </span>}
          {s.reviewedByName ? `by ${s.reviewedByName} ` : ""}
          {s.reviewedAt && <span title={formatDateTime(s.reviewedAt)}>{formatRelative(s.reviewedAt)}</span>}
        </p>
      ) : (
        canReview && (
          <div className="flex flex-wrap gap-2" onClick={(e) => e.stopPropagation()}>
            <Button size="sm" onClick={onApprove} disabled={refused} title={refused ? (lowConfidence ? "The rules refuse a suggestion this unsure; reject it" : "The rules refuse this value; edit it or reject it") : "Approve (a)"}>
              Approve
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={onEdit}
              disabled={lowConfidence}
              title={lowConfidence ? "Editing the value cannot raise its confidence; reject it" : "Edit the value, then approve (e)"}
            >
              Edit &amp; approve
            </Button>
            <Button size="sm" variant="danger-ghost" onClick={onReject} title="Reject with a reason (r)">
              Reject
            </Button>
          </div>
        )
      )}
    </div>
  );
}
