import "server-only";
import type { z } from "zod";
import { resolveAgentId } from "@/lib/agents/service";
import type { Caller } from "@/lib/auth/caller";
import { getConfig } from "@/lib/config";
import { asCaller } from "@/lib/db";
import { todayIn } from "@/lib/documents/today";
import { ApiError, notFound } from "@/lib/http/errors";
import { requireOwnAgent } from "@/lib/memories/access";
import { buildReport } from "./report-builder";
import * as q from "./queries";
import { reportDate, type listReportsQuery } from "./schemas";

/** A stored report, or (id null) one computed on demand, as the API shows it. */
function present(row: Omit<q.ReportRow, "id"> & { id: string | null }, stored: boolean) {
  const { data } = row;
  return {
    id: row.id,
    agentId: row.agentId,
    agentName: data.agentName,
    date: row.date,
    stored,
    generatedAt: new Date(row.generatedAt).toISOString(),
    learned: data.learned,
    decisions: data.decisions,
    retrieval: data.retrieval,
    escalations: data.escalations,
    suggestions: data.suggestions,
    markdown: row.markdown,
  };
}

/** GET …/reports: the nightly reports the consolidation stored, newest first (an agent: its own). */
export async function listAgentReports(caller: Caller, agentIdParam: string | undefined, query: z.infer<typeof listReportsQuery>) {
  const agentId = resolveAgentId(caller, agentIdParam);
  return asCaller(caller, async (tx) => {
    await requireOwnAgent(tx, caller, agentId);
    return { reports: (await q.listReports(tx, { agentId, limit: query.limit })).map((r) => present(r, true)) };
  });
}

/**
 * GET …/reports/{date}: the stored report of that day; for HQ a day not stored yet (today, or a day
 * before the consolidation first ran) is computed on demand and not stored.
 */
export async function getAgentReport(caller: Caller, agentIdParam: string | undefined, dateParam: string | undefined) {
  const agentId = resolveAgentId(caller, agentIdParam);
  const parsed = reportDate.safeParse(dateParam);
  if (!parsed.success) {
    // refused as a daily note's day is: 422 naming the field
    const { message, code } = parsed.error.issues[0]!;
    throw new ApiError("validation_failed", `date: ${message}`, [{ path: "date", message, code }]);
  }
  const date = parsed.data;
  const timeZone = getConfig().DAILY_NOTE_TIMEZONE;
  return asCaller(caller, async (tx) => {
    const agent = await requireOwnAgent(tx, caller, agentId);
    const stored = await q.getReport(tx, { agentId, date });
    if (stored) return { report: present(stored, true) };
    if (caller.type !== "hq" || date > todayIn(timeZone)) throw notFound("Report");
    const { data, markdown } = await buildReport(tx, { agent: { id: agent.id, name: agent.name, clientId: agent.clientId }, date, timeZone });
    return { report: present({ id: null, agentId, date, generatedAt: new Date(), data, markdown }, false) };
  });
}
