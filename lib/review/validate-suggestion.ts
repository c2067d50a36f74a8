/**
 * The memory manager's rules, in one place, as one verdict with its reasons. Used when a
 * suggestion is made, again when it is approved (by the manager pass, a manager agent or a person),
 * and for direct fact writes. Pure: the caller loads the context.
 *
 *   1. PII (SSN, payment cards, health, religion, politics)   → refuse, code pii_refused
 *   2. Sets or contradicts a locked constant                   → refuse, code locked_constant
 *   3. Confidence below 0.7                                    → refuse, code low_confidence
 *   4. Otherwise it may become a fact. It is approved without a person only when its confidence is
 *      at or above the auto-approve threshold, its key is on the client's allow-list (when the
 *      client keeps one) and the value reads like a fact rather than a transcript.
 *
 * Conflicts with the current fact are not refusals: the higher confidence wins when the suggestion
 * is applied (see apply-suggestion.ts); the flag tells the reviewer which way it will go.
 */
import { findLockedConstantConflicts, type LockedConstantLike } from "./locked-constant-conflicts";
import { describePii, detectPii, type PiiFinding } from "./pii";

/** A fact becomes canonical only at confidence ≥ 0.7 — a rule, not a setting. */
export const MIN_CONFIDENCE = 0.7;
/** Longer values read like transcripts ("Raw transcripts as facts" is what the manager must not write). */
export const MAX_AUTO_APPROVE_VALUE_LENGTH = 280;

export type FlagCode =
  | "pii"
  | "locked_constant"
  | "low_confidence"
  | "below_auto_approve"
  | "not_allowlisted"
  | "transcript_like"
  | "replaces_fact"
  | "loses_to_fact"
  | "same_as_fact";

export interface ValidationFlag {
  code: FlagCode;
  message: string;
}

export type RefusalCode = "pii_refused" | "locked_constant" | "low_confidence";

export interface SuggestionVerdict {
  /** refuse: breaks a rule; review: a person (or manager) decides; approve: may be approved automatically */
  outcome: "refuse" | "review" | "approve";
  /** the first rule broken, when refused */
  refusal: RefusalCode | null;
  /** one sentence per finding, free of the PII itself */
  reasons: string[];
  flags: ValidationFlag[];
  /** PII findings (kinds and fields only), for the audit entry of a refusal */
  pii: PiiFinding[];
  /** locked constants involved, by key */
  lockedConstants: string[];
}

export interface SuggestionInput {
  key: string;
  value: string;
  confidence: number;
}

export interface ValidationContext {
  lockedConstants: readonly LockedConstantLike[];
  /** the client's business-relevance allow-list; empty means the client keeps none */
  allowedKeys?: readonly string[];
  /** confidence at or above which the manager pass approves without a person */
  autoApproveThreshold: number;
  /** the active fact with the same key, if any */
  currentFact?: { value: string; confidence: number } | null;
}

export function validateSuggestion(input: SuggestionInput, ctx: ValidationContext): SuggestionVerdict {
  const flags: ValidationFlag[] = [];
  const pii = detectPii(input);
  for (const f of pii) flags.push({ code: "pii", message: describePii(f) });

  const conflicts = findLockedConstantConflicts(input, ctx.lockedConstants);
  for (const c of conflicts) flags.push({ code: "locked_constant", message: c.message });

  if (!(input.confidence >= MIN_CONFIDENCE)) {
    flags.push({
      code: "low_confidence",
      message: `Confidence ${formatConfidence(input.confidence)} is below the minimum of ${MIN_CONFIDENCE}`,
    });
  }

  const refusal: RefusalCode | null = pii.length
    ? "pii_refused"
    : conflicts.length
      ? "locked_constant"
      : flags.some((f) => f.code === "low_confidence")
        ? "low_confidence"
        : null;

  if (!refusal) {
    if (input.confidence < ctx.autoApproveThreshold) {
      flags.push({
        code: "below_auto_approve",
        message: `Confidence ${formatConfidence(input.confidence)} is below the auto-approve threshold of ${ctx.autoApproveThreshold}; a reviewer decides`,
      });
    }
    const allowed = ctx.allowedKeys ?? [];
    if (allowed.length > 0 && !allowed.includes(input.key)) {
      flags.push({
        code: "not_allowlisted",
        message: `"${input.key}" is not on this client's list of business-relevant keys; a reviewer decides`,
      });
    }
    if (input.value.length > MAX_AUTO_APPROVE_VALUE_LENGTH || input.value.split("\n").length > 2) {
      flags.push({ code: "transcript_like", message: "The value reads like a transcript, not a fact; a reviewer decides" });
    }
  }

  const current = ctx.currentFact;
  if (current) {
    if (sameValue(current.value, input.value)) {
      flags.push({ code: "same_as_fact", message: "Confirms the current fact" });
    } else if (current.confidence > input.confidence) {
      flags.push({
        code: "loses_to_fact",
        message: `The current fact has higher confidence (${formatConfidence(current.confidence)}); approving keeps it and marks this superseded`,
      });
    } else {
      flags.push({
        code: "replaces_fact",
        message: `Replaces the current fact (confidence ${formatConfidence(current.confidence)}), which is kept as superseded`,
      });
    }
  }

  const reviewOnly: FlagCode[] = ["below_auto_approve", "not_allowlisted", "transcript_like"];
  const outcome = refusal ? "refuse" : flags.some((f) => reviewOnly.includes(f.code)) ? "review" : "approve";
  const reasons = flags
    .filter((f) => (refusal ? ["pii", "locked_constant", "low_confidence"].includes(f.code) : reviewOnly.includes(f.code)))
    .map((f) => f.message);

  return { outcome, refusal, reasons, flags, pii, lockedConstants: conflicts.map((c) => c.constantKey) };
}

export const sameValue = (a: string, b: string) => a.trim().replace(/\s+/g, " ").toLowerCase() === b.trim().replace(/\s+/g, " ").toLowerCase();

const formatConfidence = (c: number) => (Number.isFinite(c) ? String(Math.round(c * 1000) / 1000) : String(c));
