// The nightly consolidation at a backlog, on the embedded database: 150 agents with 200 memories
// each, every one of them due — a third core memories to flag for verification, a third resolved
// working items to prune, a third expired learning memories to archive — consolidated as of 40 days
// later, first as a dry run (every step rolled back), then for real. One run each: the figure is
// the whole run's time, steps and reports included.
import { createAgent } from "@/lib/agents/service";
import type { HqCaller } from "@/lib/auth/caller";
import { asSystem } from "@/lib/db";
import { consolidate } from "@/lib/lifecycle/consolidation";
import type { BenchRow } from "./measure";

const ADMIN: HqCaller = { type: "hq", userId: null, name: "bench", email: null, role: "admin" };
const AGENTS = 150;
const PER_AGENT = 200;

/** `PER_AGENT` memories of one agent, by thirds: core, resolved working, learning that expires tomorrow. */
async function fillDue(agentId: string) {
  await asSystem((tx) =>
    tx.query(
      `insert into memories (agent_id, scope, tier, category, title, content, confidence, status, resolved_at, expires_at)
       select $1, 'agent', t.tier, t.category, 'memory ' || g, 'What memory ' || g || ' says.', 0.5, t.status, t.resolved_at, t.expires_at
         from generate_series(1, $2::int) g,
         lateral (select (array['core', 'working', 'learning'])[g % 3 + 1] as tier,
                         (array['procedure', 'project', 'insight'])[g % 3 + 1] as category,
                         case g % 3 when 1 then 'resolved' else 'active' end as status,
                         case g % 3 when 1 then now() end as resolved_at,
                         case g % 3 when 2 then now() + interval '1 day' end as expires_at) t`,
      [agentId, PER_AGENT],
    ),
  );
}

export async function benchConsolidation(): Promise<BenchRow[]> {
  for (let a = 0; a < AGENTS; a++) {
    const { agent } = await createAgent(ADMIN, { name: `Bench Consolidation ${a}`, kind: "internal", role: "specialist" });
    await fillDue(agent.id);
  }
  const now = new Date(Date.now() + 40 * 24 * 60 * 60 * 1000).toISOString();
  const rows: BenchRow[] = [];
  for (const dryRun of [true, false]) {
    const started = performance.now();
    const report = await consolidate(ADMIN, { now, dryRun });
    const ms = performance.now() - started;
    const benchmark = dryRun ? "consolidation, dry run" : "consolidation, real run";
    process.stderr.write(`bench: ${benchmark}: ${ms.toFixed(0)} ms\n`);
    rows.push({ benchmark, n: 1, p50: ms, p95: ms, notes: `${AGENTS * PER_AGENT} due memories: ${report.changes} changes, ${report.reports.count} reports` });
  }
  return rows;
}
