import "server-only";
import { getConfig } from "@/lib/config";
import type { Queryable } from "@/lib/db";
import { listLockedConstants } from "@/lib/locked-constants/queries";
import * as q from "./queries";
import type { ValidationContext } from "./validate-suggestion";

export interface FactWriteResult {
  /** approved: the value is now the active fact; superseded: the current fact kept its place */
  outcome: "approved" | "superseded";
  /** the active fact afterwards (the new one, or the one that won) */
  fact: q.FactRow;
  /** the fact the new one replaced, now superseded with a pointer to the winner */
  replaced: q.FactRow | null;
}

/**
 * Writes a fact under the conflict rule: on the same key the higher confidence wins
 * (a tie goes to the newer value: the world changes). The loser is kept, never deleted — an older
 * fact becomes `superseded` pointing at its replacement; a losing proposal is reported back so its
 * suggestion can be marked superseded pointing at the fact that stayed. The contact's facts are
 * locked for the transaction, so two writers resolve one after the other.
 */
export async function writeFactResolvingConflict(
  tx: Queryable,
  p: { contactId: string; key: string; value: string; confidence: number; sourceSuggestionId: string | null },
): Promise<FactWriteResult> {
  await q.lockContactFacts(tx, { contactId: p.contactId });
  const current = await q.getActiveFact(tx, { contactId: p.contactId, key: p.key });
  if (current && current.confidence > p.confidence) return { outcome: "superseded", fact: current, replaced: null };
  if (current) await q.retireFact(tx, { id: current.id });
  const fact = await q.insertFact(tx, p);
  if (current) await q.pointToWinner(tx, { loserId: current.id, winnerId: fact.id });
  return { outcome: "approved", fact, replaced: current ? { ...current, status: "superseded", supersededBy: fact.id } : null };
}

/** Everything the validator needs about one contact and key, loaded as the caller. */
export async function loadValidationContext(
  tx: Queryable,
  p: { clientId: string | null; contactId: string; key: string },
  cache?: { constants?: Awaited<ReturnType<typeof listLockedConstants>>; keys?: Map<string, string[]> },
): Promise<ValidationContext> {
  const lockedConstants = cache?.constants ?? (await listLockedConstants(tx));
  if (cache) cache.constants = lockedConstants;
  const cacheKey = p.clientId ?? "hq";
  let allowedKeys = cache?.keys?.get(cacheKey);
  if (!allowedKeys) {
    allowedKeys = await q.getFactKeys(tx, { clientId: p.clientId });
    cache?.keys?.set(cacheKey, allowedKeys);
  }
  const current = await q.getActiveFact(tx, { contactId: p.contactId, key: p.key });
  return {
    lockedConstants,
    allowedKeys,
    autoApproveThreshold: getConfig().REVIEW_AUTO_APPROVE_THRESHOLD,
    currentFact: current ? { value: current.value, confidence: current.confidence } : null,
  };
}
