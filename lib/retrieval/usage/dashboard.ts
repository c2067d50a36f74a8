import "server-only";
import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { asCaller } from "@/lib/db";
import { forbidden } from "@/lib/http/errors";
import * as q from "./dashboard-queries";
import type { retrievalStatsQuery } from "../schemas";

const LEVELS = ["none", "local", "shared", "hq"] as const;

/**
 * GET /retrieval/stats — the Dashboard: retrievals per level per day (agents' own calls; console
 * playground runs are counted apart), latency, the most and never retrieved knowledge entries
 * (what actually gets used), pending reviews and open items.
 */
export async function getRetrievalStats(caller: Caller, query: z.infer<typeof retrievalStatsQuery>, now = new Date()) {
  if (caller.type !== "hq") throw forbidden("Retrieval analytics are for HQ");
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (query.days - 1)));
  return asCaller(caller, async (tx) => {
    const perDayRows = await q.retrievalsPerDay(tx, { since });
    const totals = await q.retrievalTotals(tx, { since });
    const mostRetrieved = await q.mostRetrievedKnowledge(tx, { limit: 10 });
    const neverRetrieved = await q.neverRetrievedKnowledge(tx, { limit: 10 });
    const pendingReviews = await q.pendingReviewCounts(tx);
    const decisions = await q.decisionsAwaitingOutcome(tx, { limit: 10 });
    const suggestions = await q.oldestPendingSuggestions(tx, { limit: 5 });

    const perDay = Array.from({ length: query.days }, (_, i) => {
      const day = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
      const counts = Object.fromEntries(LEVELS.map((l) => [l, 0])) as Record<(typeof LEVELS)[number], number>;
      for (const r of perDayRows) if (r.day === day && r.level in counts) counts[r.level as (typeof LEVELS)[number]] += r.n;
      return { day, ...counts, total: LEVELS.reduce((s, l) => s + counts[l], 0) };
    });
    return {
      days: query.days,
      since: since.toISOString(),
      perDay,
      totals,
      knowledge: { mostRetrieved, neverRetrieved: neverRetrieved.entries, neverRetrievedCount: neverRetrieved.total },
      pendingReviews,
      openItems: { decisionsAwaitingOutcome: decisions.items, decisionsAwaitingOutcomeCount: decisions.total, pendingSuggestions: suggestions },
    };
  });
}
