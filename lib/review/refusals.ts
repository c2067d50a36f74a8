import { ApiError } from "@/lib/http/errors";
import { describePii, detectPii, type PiiFinding } from "./pii";
import type { SuggestionVerdict } from "./validate-suggestion";

/** A write the rules refused. Returned out of the transaction (so its audit entry commits), then thrown. */
export interface Refusal {
  refused: SuggestionVerdict;
}

/** The API error of a refused write: 422 pii_refused, 422 locked_constant, or 422 validation_failed (confidence). */
export function refusalError(verdict: SuggestionVerdict): ApiError {
  const message = verdict.reasons.join("; ") || "Refused by the memory manager's rules";
  const details = { reasons: verdict.reasons, flags: verdict.flags };
  switch (verdict.refusal) {
    case "pii_refused":
      return new ApiError("pii_refused", message, details);
    case "locked_constant":
      return new ApiError("locked_constant", message, { ...details, lockedConstants: verdict.lockedConstants });
    default:
      return new ApiError("validation_failed", message, details);
  }
}

/**
 * Refuses (422 pii_refused) a text holding an SSN or a payment card number. Notes, events, playbook
 * ideas and agents' own memories are the agents' working material and knowledge, not facts about a
 * person, so a topic may pass there ("Lesson: never discuss politics with callers"); the identifiers
 * never do, not even for a day.
 */
export function refuseIdentifiers(fields: Record<string, string | readonly string[] | null | undefined>) {
  const findings: PiiFinding[] = [];
  for (const [field, value] of Object.entries(fields)) {
    // each finding names the request field that held it, an item of a list by its index
    const texts: [string, string][] = typeof value === "string" ? [[field, value]] : (value ?? []).map((v, i) => [`${field}[${i}]`, v]);
    for (const [name, text] of texts) {
      for (const f of detectPii({ key: "", value: text })) {
        if (f.kind === "ssn" || f.kind === "payment_card") findings.push({ ...f, field: name });
      }
    }
  }
  if (findings.length) throw new ApiError("pii_refused", findings.map(describePii).join("; "), { findings });
}
