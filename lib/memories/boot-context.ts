import "server-only";
import { resolveAgentId } from "@/lib/agents/service";
import type { Caller } from "@/lib/auth/caller";
import { asCaller } from "@/lib/db";
import { getBootDocuments } from "@/lib/documents/queries";
import { presentDocument, today } from "@/lib/documents/service";
import { listLockedConstants } from "@/lib/locked-constants/queries";
import { requireOwnAgent } from "./access";
import * as q from "./queries";
import { RECENT_DAYS } from "./rules";

const CORE_LIMIT = 50;
const PENDING_LIMIT = 50;
const RECENT_LIMIT = 20;
const TEAM_HIGHLIGHTS_LIMIT = 10;

/**
 * Everything an agent loads when it wakes: SOUL, scratchpad, today's daily note,
 * core memories, pending commitments, recent working items (last 7 days), locked constants, and —
 * internal agents only, field agents have no shared brain — the team's highlights. One transaction,
 * every query on an index.
 */
export async function getBootContext(caller: Caller, agentIdParam: string | undefined) {
  const agentId = resolveAgentId(caller, agentIdParam);
  const date = today();
  return asCaller(caller, async (tx) => {
    const agent = await requireOwnAgent(tx, caller, agentId);
    const docs = await getBootDocuments(tx, { agentId, date });
    const doc = (type: "soul" | "working" | "daily") =>
      presentDocument(type, type === "daily" ? date : null, docs.find((d) => d.type === type) ?? null);
    const core = await q.listActiveByTier(tx, { agentId, tier: "core", limit: CORE_LIMIT, order: "confidence" });
    const pending = await q.listActiveByTier(tx, {
      agentId,
      tier: "working",
      categories: ["commitment"],
      limit: PENDING_LIMIT,
      order: "oldest",
    });
    const recent = await q.listActiveByTier(tx, {
      agentId,
      tier: "working",
      categories: ["project", "thread"],
      sinceDays: RECENT_DAYS,
      limit: RECENT_LIMIT,
      order: "recent",
    });
    const lockedConstants = await listLockedConstants(tx);
    const teamHighlights =
      agent.kind === "internal" ? await q.listTeamHighlights(tx, { sinceDays: RECENT_DAYS, limit: TEAM_HIGHLIGHTS_LIMIT }) : undefined;
    return {
      agent,
      soul: doc("soul"),
      working: doc("working"),
      daily: doc("daily"),
      core,
      pending,
      recent,
      lockedConstants,
      ...(teamHighlights ? { teamHighlights } : {}),
    };
  });
}
