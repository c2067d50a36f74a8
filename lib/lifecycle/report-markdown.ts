import type { ReportData } from "./contracts";

/** The nightly report as markdown: what the agent learned, decided, retrieved, escalated and proposed. */
export function reportMarkdown(d: ReportData): string {
  const lines: string[] = [`# Nightly report — ${d.agentName}, ${d.date}`, ""];
  lines.push("## Learned", `${d.learned.total} new memories: ${d.learned.core} core, ${d.learned.working} working, ${d.learned.learning} learning.`, "");
  lines.push("## Decisions and outcomes");
  lines.push(`- Decisions made: ${d.decisions.made.length}`);
  for (const m of d.decisions.made) lines.push(`  - ${m.title}`);
  lines.push(`- Outcomes recorded: ${d.decisions.outcomesRecorded.length}`);
  for (const o of d.decisions.outcomesRecorded) lines.push(`  - ${o.title}${o.success === null ? "" : o.success ? " (success)" : " (failure)"}`);
  lines.push(`- Decisions awaiting outcomes: ${d.decisions.awaitingOutcomes.length}`);
  for (const a of d.decisions.awaitingOutcomes) lines.push(`  - ${a.title} — ${a.ageDays} day${a.ageDays === 1 ? "" : "s"} old`);
  lines.push("");
  const levels = Object.entries(d.retrieval.byLevel).map(([level, n]) => `${level} ${n}`);
  lines.push("## Retrieval", `${d.retrieval.calls} calls${levels.length ? ` (${levels.join(", ")})` : ""}; ${d.retrieval.emptyResults} returned nothing.`, "");
  lines.push("## Escalations", `Raised: ${d.escalations.raised.length}; resolved: ${d.escalations.resolved}.`, "");
  for (const e of d.escalations.raised) lines.push(`- [${e.severity}] ${e.question} (${e.status})`);
  lines.push("");
  lines.push("## Suggestions", `Proposed ${d.suggestions.proposed}, approved ${d.suggestions.approved}, rejected ${d.suggestions.rejected}.`);
  return lines.join("\n") + "\n";
}
