import "server-only";
import type { z } from "zod";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { getConfig } from "@/lib/config";
import { asCaller } from "@/lib/db";
import type { listLockedConstants } from "@/lib/locked-constants/queries";
import { loadValidationContext, writeFactResolvingConflict } from "./apply-suggestion";
import type { managerPassReportView } from "./contracts";
import * as q from "./queries";
import { validateSuggestion } from "./validate-suggestion";

export type ManagerPassReport = z.output<typeof managerPassReportView>;
type ManagerPassItem = ManagerPassReport["items"][number];

const DEFAULT_LIMIT = 200;

/**
 * The memory manager's pass ("validate → commit approved updates") for every pending
 * suggestion the caller may review (oldest first): a rule broken → rejected with the reasons;
 * clean, confident (≥ REVIEW_AUTO_APPROVE_THRESHOLD) and relevant → applied (higher confidence wins a
 * conflict); anything else → left for a person, with the validator's flags refreshed.
 *
 * Idempotent: only pending suggestions are looked at, and each decision is conditional on the row
 * still being pending. Safe concurrently: rows are claimed `for update skip locked`, so two passes
 * split the queue instead of deciding a suggestion twice; their contacts are held (skipping one an
 * erasure holds) and the per-contact fact locks taken in contact order before any fact is written,
 * so neither another pass nor an erasure of one of those contacts can deadlock with it.
 */
export async function runManagerPass(caller: Caller, opts: { limit?: number } = {}): Promise<ManagerPassReport> {
  const threshold = getConfig().REVIEW_AUTO_APPROVE_THRESHOLD;
  return asCaller(caller, async (tx) => {
    const claimed = await q.claimPendingSuggestions(tx, { limit: opts.limit ?? DEFAULT_LIMIT });
    // their contacts, without waiting: one an erasure holds is about to lose these suggestions
    const held = new Set(await q.holdContacts(tx, { ids: claimed.map((s) => s.contactId), skipLocked: true }));
    // every fact lock this pass may need, in contact order, before it writes any: another pass that
    // claimed other suggestions of the same contacts takes them in the same order
    await q.lockContactsFacts(tx, { contactIds: [...held] });
    const cache: { constants?: Awaited<ReturnType<typeof listLockedConstants>>; keys: Map<string, string[]> } = { keys: new Map() };
    const items: ManagerPassItem[] = [];

    for (const s of claimed) {
      if (!held.has(s.contactId)) continue;
      const ctx = await loadValidationContext(tx, { clientId: s.clientId, contactId: s.contactId, key: s.key }, cache);
      const verdict = validateSuggestion({ key: s.key, value: s.value, confidence: s.confidence }, ctx);

      if (verdict.outcome === "refuse") {
        const reason = verdict.reasons.join("; ");
        if (await q.decideSuggestion(tx, { id: s.id, status: "rejected", reason, factId: null, flags: verdict.flags, system: true })) {
          await recordAudit(tx, {
            action: "suggestion.auto_reject",
            targetType: "suggestion",
            targetId: s.id,
            clientId: s.clientId,
            details: { contactId: s.contactId, key: verdict.pii.some((f) => f.field === "key") ? null : s.key, code: verdict.refusal, confidence: s.confidence },
          });
          items.push({ id: s.id, key: s.key, outcome: "rejected", reason });
        }
        continue;
      }

      if (verdict.outcome === "review") {
        await q.setSuggestionFlags(tx, { id: s.id, flags: verdict.flags });
        items.push({ id: s.id, key: s.key, outcome: "left", reason: verdict.reasons.join("; ") });
        continue;
      }

      const result = await writeFactResolvingConflict(tx, {
        contactId: s.contactId,
        key: s.key,
        value: s.value,
        confidence: s.confidence,
        sourceSuggestionId: s.id,
      });
      const superseded = result.outcome === "superseded";
      const reason = superseded
        ? `Kept the current fact: its confidence ${result.fact.confidence} is higher than ${s.confidence}`
        : `Auto-approved: confidence ${s.confidence} ≥ ${threshold}`;
      const decided = await q.decideSuggestion(tx, {
        id: s.id,
        status: superseded ? "superseded" : "approved",
        reason,
        factId: result.fact.id,
        flags: verdict.flags,
        system: true,
      });
      if (!decided) throw new Error(`suggestion ${s.id} changed while the manager pass held its lock`);
      await recordAudit(tx, {
        action: superseded ? "suggestion.auto_supersede" : "suggestion.auto_approve",
        targetType: "suggestion",
        targetId: s.id,
        clientId: s.clientId,
        details: { contactId: s.contactId, key: s.key, confidence: s.confidence, factId: result.fact.id, replacedFactId: result.replaced?.id ?? null },
      });
      items.push({ id: s.id, key: s.key, outcome: superseded ? "superseded" : "approved", reason, factId: result.fact.id });
    }

    const count = (o: ManagerPassItem["outcome"]) => items.filter((i) => i.outcome === o).length;
    const report: ManagerPassReport = {
      processed: items.length,
      approved: count("approved"),
      superseded: count("superseded"),
      rejected: count("rejected"),
      left: count("left"),
      threshold,
      items,
    };
    if (report.approved + report.superseded + report.rejected > 0) {
      const { processed, approved, superseded, rejected, left } = report;
      await recordAudit(tx, { action: "review.run", targetType: "review", details: { processed, approved, superseded, rejected, left, threshold } });
    }
    return report;
  });
}
