import type { BadgeTone } from "@/components/ui/badge";
import type { SuggestionFlag, SuggestionStatus } from "@/lib/console/review-types";

/** Red: the rules refuse it. Amber: a person decides. Blue/violet: how a conflict resolves. */
export const FLAG_TONE: Record<string, BadgeTone> = {
  pii: "red",
  locked_constant: "red",
  low_confidence: "red",
  below_auto_approve: "amber",
  not_allowlisted: "amber",
  transcript_like: "amber",
  replaces_fact: "blue",
  loses_to_fact: "violet",
  same_as_fact: "green",
};

export const FLAG_LABEL: Record<string, string> = {
  pii: "PII",
  locked_constant: "Locked constant",
  low_confidence: "Low confidence",
  below_auto_approve: "Below auto-approve",
  not_allowlisted: "Not on allow-list",
  transcript_like: "Reads like a transcript",
  replaces_fact: "Replaces current fact",
  loses_to_fact: "Current fact wins",
  same_as_fact: "Confirms current fact",
};

export const flagTone = (f: SuggestionFlag): BadgeTone => FLAG_TONE[f.code] ?? "neutral";
export const flagLabel = (f: SuggestionFlag): string => FLAG_LABEL[f.code] ?? f.code;

export const STATUS_TONE: Record<SuggestionStatus, BadgeTone> = {
  pending: "amber",
  approved: "green",
  rejected: "red",
  superseded: "violet",
};

export function confidenceTone(c: number): BadgeTone {
  if (c >= 0.9) return "green";
  if (c >= 0.7) return "amber";
  return "red";
}

export const formatConfidence = (c: number) => `${Math.round(c * 100)}%`;

/** The rules' verdict on a pending suggestion, said short for a compact row (its color as text). */
export const VERDICT_LABEL: Record<"approve" | "review" | "refuse", string> = {
  approve: "passes the rules",
  review: "needs a person",
  refuse: "breaks a rule",
};

export const VERDICT_TONE: Record<"approve" | "review" | "refuse", string> = {
  approve: "text-emerald-700",
  review: "text-amber-800",
  refuse: "text-red-700",
};

/** The value a reviewer stored when they changed the proposal before approving it; null when unchanged. */
export const editedValue = (s: { value: string; approvedValue?: string | null }) =>
  s.approvedValue != null && s.approvedValue !== s.value ? s.approvedValue : null;

export const contactLabel = (s: { contact: { name: string | null; optOut: boolean } }) =>
  s.contact.name ?? (s.contact.optOut ? "Opted-out contact" : "Unnamed contact");

/** Flags whose message the queue says once for all (the auto-approve threshold), not on every suggestion. */
export const SAID_ONCE = new Set(["below_auto_approve"]);

const ORDER: Record<SuggestionStatus, string> = {
  pending: "oldest first",
  approved: "the latest decision first",
  rejected: "the latest decision first",
  superseded: "the latest decision first",
};

/**
 * The queue's caption as one phrase, e.g. "309 pending suggestions, oldest first" (the order belongs
 * to the count: they wrap together). `total` is null while unknown (a verdict filter reads page by page).
 */
export function queueCaption(total: number | null, status: SuggestionStatus, shown: number): string {
  const n = total ?? shown;
  const what = `${status} suggestion${n === 1 ? "" : "s"}`;
  return `${total === null ? `${n.toLocaleString("en-US")}${shown ? "+" : ""}` : n.toLocaleString("en-US")} ${what}, ${ORDER[status]}`;
}
