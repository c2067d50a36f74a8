import "server-only";
import type { z } from "zod";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { getConfig } from "@/lib/config";
import { asCaller, type Queryable } from "@/lib/db";
import { ApiError, fromDatabaseError, notFound } from "@/lib/http/errors";
import { parseRankedCursor } from "@/lib/http/input-guards";
import { listLockedConstants } from "@/lib/locked-constants/queries";
import { loadValidationContext, writeFactResolvingConflict } from "./apply-suggestion";
import { refusalDetails, requireVisibleContact } from "./contacts-service";
import * as q from "./queries";
import { refusalError, type Refusal } from "./refusals";
import type { createSuggestionBody, listSuggestionsQuery, reviewSuggestionBody } from "./schemas";
import { validateSuggestion, type SuggestionVerdict } from "./validate-suggestion";

export type SuggestionView = ReturnType<typeof toSuggestionView>;

/** A suggestion as the API shows it: the proposal, and beside it the fact it would replace and its source. */
export function toSuggestionView(row: q.SuggestionListRow) {
  const {
    contactName, contactOptOut, clientName, currentFactId, currentValue, currentConfidence,
    interactionChannel, interactionExcerpt, interactionOccurredAt, ...suggestion
  } = row;
  return {
    ...suggestion,
    contact: { id: row.contactId, name: contactName, optOut: contactOptOut },
    clientName,
    currentFact: currentFactId ? { id: currentFactId, value: currentValue!, confidence: currentConfidence! } : null,
    interaction:
      row.interactionId && interactionExcerpt !== null
        ? { id: row.interactionId, channel: interactionChannel, excerpt: interactionExcerpt, occurredAt: interactionOccurredAt }
        : null,
  };
}

async function loadView(tx: Queryable, id: string) {
  const [row] = await q.listSuggestions(tx, { id, limit: 1 });
  if (!row) throw notFound("Suggestion");
  const { cursor: _cursor, ...suggestion } = row;
  return toSuggestionView(suggestion);
}

/**
 * A memory suggestion: an orchestrator or specialist proposes a fact. Personal data is refused at
 * once (422; only an audit entry without it is kept). Everything else waits for the memory manager,
 * pending, with the validator's verdict and flags: the other rules (confidence ≥ 0.7, locked
 * constants) are applied when it is decided — the manager pass rejects what breaks them, a
 * reviewer's approval is refused. The same proposal made twice while pending is stored once
 * (`deduplicated`).
 */
export async function createSuggestion(caller: Caller, body: z.infer<typeof createSuggestionBody>) {
  const outcome = await asCaller(caller, async (tx): Promise<Refusal | { suggestion: SuggestionView; validation: Pick<SuggestionVerdict, "outcome" | "reasons" | "flags">; deduplicated?: true }> => {
    const contact = await requireVisibleContact(tx, body.contactId);
    if (contact.optOut) throw new ApiError("conflict", "This contact opted out; nothing more is stored about them");
    if (body.interactionId && !(await q.interactionFitsContact(tx, { interactionId: body.interactionId, contactId: contact.id }))) {
      throw new ApiError("validation_failed", "interactionId does not name an interaction with this contact");
    }
    const ctx = await loadValidationContext(tx, { clientId: contact.clientId, contactId: contact.id, key: body.key });
    const verdict = validateSuggestion(body, ctx);
    if (verdict.refusal === "pii_refused") {
      await recordAudit(tx, {
        action: "suggestion.refused",
        targetType: "contact",
        targetId: contact.id,
        clientId: contact.clientId,
        details: refusalDetails(body.key, body.confidence, verdict),
      });
      return { refused: verdict };
    }
    const duplicate = await q.findPendingDuplicate(tx, { contactId: contact.id, key: body.key, value: body.value });
    if (duplicate) {
      return {
        suggestion: await loadView(tx, duplicate),
        validation: { outcome: verdict.outcome, reasons: verdict.reasons, flags: verdict.flags },
        deduplicated: true,
      };
    }
    const id = await q.insertSuggestion(tx, {
      contactId: contact.id,
      key: body.key,
      value: body.value,
      confidence: body.confidence,
      interactionId: body.interactionId ?? null,
      flags: verdict.flags,
    });
    await recordAudit(tx, {
      action: "suggestion.create",
      targetType: "suggestion",
      targetId: id,
      clientId: contact.clientId,
      details: { contactId: contact.id, key: body.key, confidence: body.confidence },
    });
    return {
      suggestion: await loadView(tx, id),
      validation: { outcome: verdict.outcome, reasons: verdict.reasons, flags: verdict.flags },
    };
  });
  if ("refused" in outcome) throw refusalError(outcome.refused);
  return outcome;
}

/**
 * Suggestions with the current fact and the source interaction beside each, a page at a time in the
 * queue's order (keyset: `cursor` is the previous page's `nextCursor`). Pending ones carry the
 * validator's flags and verdict as of now (a fact or a locked constant may have changed since they
 * were made); decided ones keep the flags of their decision. The verdict is the rules' answer, not a
 * column, so `verdict` filters as the rows are judged: such a page reads on until it is full, and its
 * answer has no total.
 */
export async function listSuggestions(caller: Caller, query: z.infer<typeof listSuggestionsQuery>) {
  const { limit, cursor, verdict, ...filters } = query;
  const threshold = getConfig().REVIEW_AUTO_APPROVE_THRESHOLD;
  return asCaller(caller, async (tx) => {
    const judge = verdictJudge(tx, threshold);
    const suggestions: Awaited<ReturnType<typeof judge>>[] = [];
    let after = cursor ? parseRankedCursor(cursor) ?? undefined : undefined;
    let lastShown: string | null = null;
    let nextCursor: string | null = null;
    // a verdict filter skips rows, so it reads more than a page at a time
    const batch = verdict ? Math.max(limit, 200) : limit;
    read: for (;;) {
      const rows = await q.listSuggestions(tx, { ...filters, limit: batch, after });
      for (const { cursor: rowCursor, ...row } of rows.slice(0, batch)) {
        const view = await judge(row);
        if (verdict && view.verdict !== verdict) continue;
        if (suggestions.length === limit) {
          nextCursor = lastShown;
          break read;
        }
        suggestions.push(view);
        lastShown = rowCursor;
      }
      // the extra row says whether more follow
      if (rows.length <= batch) break;
      if (!verdict && suggestions.length === limit) {
        nextCursor = lastShown;
        break;
      }
      after = parseRankedCursor(rows[batch - 1]!.cursor) ?? undefined;
    }
    const total = verdict ? undefined : await q.countSuggestions(tx, filters);
    return { suggestions, nextCursor, ...(total === undefined ? {} : { total }), autoApproveThreshold: threshold };
  });
}

/** A suggestion's view with the validator's verdict as of now (pending ones; decided ones keep their decision's flags). */
function verdictJudge(tx: Queryable, threshold: number) {
  let lockedConstants: Awaited<ReturnType<typeof listLockedConstants>> | null = null;
  const allowLists = new Map<string, string[]>();
  return async (row: q.SuggestionListRow) => {
    const view = toSuggestionView(row);
    if (row.status !== "pending") return { ...view, verdict: null };
    lockedConstants ??= await listLockedConstants(tx);
    const clientKey = row.clientId ?? "hq";
    if (!allowLists.has(clientKey)) allowLists.set(clientKey, await q.getFactKeys(tx, { clientId: row.clientId }));
    const verdict = validateSuggestion(row, {
      lockedConstants,
      allowedKeys: allowLists.get(clientKey),
      autoApproveThreshold: threshold,
      currentFact: view.currentFact,
    });
    return { ...view, flags: verdict.flags, verdict: verdict.outcome };
  };
}

/**
 * A reviewer's decision (manager agents, HQ admins and curators). Approval runs the rules again on
 * the value that would be stored (the reviewer may have edited it) and then resolves a conflict
 * with the current fact: the higher confidence wins, the loser is kept as superseded.
 */
export async function reviewSuggestion(caller: Caller, id: string, body: z.infer<typeof reviewSuggestionBody>) {
  const outcome = await asCaller(caller, async (tx): Promise<Refusal | { suggestion: SuggestionView; fact?: q.FactRow }> => {
    // the contact first, then the suggestion: the order an opt-out erasure locks them in
    const seen = await q.getSuggestion(tx, { id });
    if (!seen) throw notFound("Suggestion");
    await q.holdContacts(tx, { ids: [seen.contactId], skipLocked: false });
    const s = await q.getSuggestion(tx, { id, forUpdate: true });
    if (!s) throw notFound("Suggestion");
    if (s.status !== "pending") throw new ApiError("conflict", `This suggestion was already ${s.status}`, { status: s.status });
    const contact = await requireVisibleContact(tx, s.contactId);

    if (body.decision === "reject") {
      const reason = body.reason ?? "Rejected by the reviewer";
      await q.decideSuggestion(tx, { id, status: "rejected", reason, factId: null });
      await recordAudit(tx, {
        action: "suggestion.reject",
        targetType: "suggestion",
        targetId: id,
        clientId: contact.clientId,
        details: { contactId: s.contactId, key: s.key, confidence: s.confidence, reason },
      });
      return { suggestion: await loadView(tx, id) };
    }

    const value = body.value ?? s.value;
    const ctx = await loadValidationContext(tx, { clientId: contact.clientId, contactId: s.contactId, key: s.key });
    const verdict = validateSuggestion({ key: s.key, value, confidence: s.confidence }, ctx);
    if (verdict.refusal) {
      // the suggestion stays pending: the reviewer may reject it, or approve an edited, clean value
      await recordAudit(tx, {
        action: "suggestion.approve_refused",
        targetType: "suggestion",
        targetId: id,
        clientId: contact.clientId,
        details: { contactId: s.contactId, ...refusalDetails(s.key, s.confidence, verdict), edited: value !== s.value },
      });
      return { refused: verdict };
    }
    const result = await writeFactResolvingConflict(tx, {
      contactId: s.contactId,
      key: s.key,
      value,
      confidence: s.confidence,
      sourceSuggestionId: id,
    });
    const superseded = result.outcome === "superseded";
    const reason = superseded
      ? `Kept the current fact: its confidence ${result.fact.confidence} is higher than ${s.confidence}`
      : (body.reason ?? null);
    await q.decideSuggestion(tx, { id, status: superseded ? "superseded" : "approved", reason, factId: result.fact.id });
    await recordAudit(tx, {
      action: superseded ? "suggestion.supersede" : "suggestion.approve",
      targetType: "suggestion",
      targetId: id,
      clientId: contact.clientId,
      details: {
        contactId: s.contactId,
        key: s.key,
        confidence: s.confidence,
        factId: result.fact.id,
        replacedFactId: result.replaced?.id ?? null,
        edited: value !== s.value,
        reason,
      },
    });
    return { suggestion: await loadView(tx, id), fact: result.fact };
  });
  if ("refused" in outcome) throw refusalError(outcome.refused);
  return outcome;
}

/** One decision for many suggestions (the Review queue's bulk approve); each succeeds or fails on its own. */
export async function reviewSuggestions(
  caller: Caller,
  body: { ids: string[]; decision: "approve" | "reject"; reason?: string },
) {
  const results: { id: string; ok: boolean; status?: string; error?: { code: string; message: string } }[] = [];
  for (const id of body.ids) {
    try {
      const r = await reviewSuggestion(caller, id, { decision: body.decision, reason: body.reason });
      results.push({ id, ok: true, status: r.suggestion.status });
    } catch (err) {
      const known = err instanceof ApiError ? err : fromDatabaseError(err);
      if (!known) throw err;
      results.push({ id, ok: false, error: { code: known.code, message: known.message } });
    }
  }
  return { results, succeeded: results.filter((r) => r.ok).length, failed: results.filter((r) => !r.ok).length };
}
