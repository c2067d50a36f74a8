import "server-only";
import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { asCaller } from "@/lib/db";
import * as q from "./queries";
import type { outcomesQuery } from "./schemas";

/**
 * Outcomes across agents (HQ): decisions awaiting outcomes oldest first, the success rate per agent
 * (overall, and per tag of the decisions), and the latest scored decisions with their outcomes.
 */
export async function getOutcomes(caller: Caller, query: z.infer<typeof outcomesQuery>, now = new Date()) {
  return asCaller(caller, async (tx) => {
    const awaiting = await q.listAwaitingOutcomes(tx, { now: now.toISOString(), limit: query.limit });
    const rates = (await q.successRates(tx)).map((r) => ({ ...r, successRate: r.scored ? r.successes / r.scored : null }));
    const recent = await q.recentScoredDecisions(tx, { limit: 50 });
    return { awaiting, rates, recent };
  });
}
