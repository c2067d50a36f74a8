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

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The queue's caption, e.g. "15 suggestions: 9 from 4 messages, 6 without a source message": the
 * messages are the distinct source messages, and suggestions proposed without one are not counted
 * as messages.
 */
export function countCaption(suggestions: { interactionId?: string | null }[]): string {
  const messages = new Set(suggestions.map((s) => s.interactionId).filter(Boolean)).size;
  const messaged = suggestions.filter((s) => s.interactionId).length;
  const unsourced = suggestions.length - messaged;
  const all = plural(suggestions.length, "suggestion", "suggestions");
  if (!unsourced) return `${all} from ${plural(messages, "message", "messages")}`;
  if (!messaged) return `${all}, none from a source message`;
  return `${all}: ${messaged} from ${plural(messages, "message", "messages")}, ${unsourced} without a source message`;
}
