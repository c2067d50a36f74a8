import "server-only";
import type { Queryable } from "@/lib/db";
import * as q from "./queries";
import { reportMarkdown } from "./report-markdown";
import type { ReportData } from "./contracts";

/** Computes one agent's report for a local day from the day's rows (memories, retrieval log, escalations, suggestions). */
export async function buildReport(
  tx: Queryable,
  p: { agent: q.ReportAgent; date: string; timeZone: string },
): Promise<{ data: ReportData; markdown: string }> {
  const a = await q.reportActivity(tx, { agentId: p.agent.id, date: p.date, timeZone: p.timeZone });
  const tier = (t: string) => a.learned.find((r) => r.tier === t)?.n ?? 0;
  const awaiting = await q.listAwaitingOutcomes(tx, { now: a.end, agentId: p.agent.id, createdBefore: a.end, limit: 100 });
  const data: ReportData = {
    agentId: p.agent.id,
    agentName: p.agent.name,
    date: p.date,
    learned: { total: tier("core") + tier("working") + tier("learning"), core: tier("core"), working: tier("working"), learning: tier("learning") },
    decisions: {
      made: a.made,
      outcomesRecorded: a.outcomes,
      awaitingOutcomes: awaiting.map((d) => ({ id: d.id, title: d.title, createdAt: d.createdAt, ageDays: d.ageDays })),
    },
    retrieval: {
      calls: a.retrieval.reduce((n, r) => n + r.calls, 0),
      byLevel: Object.fromEntries(a.retrieval.map((r) => [r.level, r.calls])),
      emptyResults: a.retrieval.reduce((n, r) => n + r.empty, 0),
    },
    escalations: { raised: a.raised, resolved: a.resolved },
    suggestions: a.suggestions,
  };
  return { data, markdown: reportMarkdown(data) };
}
