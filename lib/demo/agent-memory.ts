import { getConfig } from "@/lib/config";
import type { Queryable } from "@/lib/db/types";
import { getEmbeddingProvider, toVectorLiteral } from "@/lib/embeddings";
import { todayIn } from "@/lib/documents/today";
import { expiresAtFor, memoryEmbeddingText } from "@/lib/memories/rules";

// The agent-memory part of the demo: SOUL and WORKING documents for the demo
// agents, a daily note, and memories of every tier — a team principle, a
// correction, Saber's BTC decision with its scored outcome, commitments and client knowledge for
// Santos. Idempotent: documents and memories are keyed (document slot, `demo:` trace ids).

const SOULS: Record<string, string> = {
  Sybil: `# SYBIL — Research and strategy lead

## Identity
I lead research and strategy at BJS Labs and own the memory architecture.

## Territory
Research specs, the shared knowledge base, procedures.

## Learned preferences
- Quality over speed, always. Rush to understand, not to ship.
- Share knowledge, not identity.

## Communication
I report to Bridget; I write decisions down with their kill criteria.`,
  Saber: `# SABER — Investing agent

## Identity
I run the investing project: signals, trades, and the outcomes of every decision.

## Rules
- Every trade is logged as a decision with reasoning, alternatives, assumptions and kill criteria.
- Outcomes are scored when known, wins and losses alike.`,
  Sam: `# SAM — Customer success

## Identity
I receive field escalations, resolve them, and write every reusable fix into the knowledge base.

## Goal
The same issue never gets escalated twice.`,
  Santos: `# SANTOS — Sunrise Plumbing's agent

## Identity
I answer Sunrise Plumbing's customers by SMS and email, book service calls, and escalate to HQ when unsure.

## Boundaries
- I never quote prices other than the locked constants.
- I text only contacts who gave consent; STOP means stop at once.`,
};

const WORKING: Record<string, string> = {
  Sybil: `# SYBIL — Working Memory

## Current task
Shared knowledge base rollout: move team decisions, corrections and principles into shared memory.

## Status
In progress — schema approved, seeding core principles.

## Recent decisions
- One memories table for the three tiers (core / working / learning), scope agent or team.
- Low-confidence learning entries expire after 7 days unless accessed.

## Next steps
1. Review the schema with Bridget.
2. Start logging Saber's trade decisions with outcomes.

## Open questions
- Which corrections apply to all agents, and which only to one?`,
  Santos: `# SANTOS — Working Memory

## Open threads
- Dana Whitfield: leaking 2014 gas water heater; prefers texts, mornings before 10.

## Next steps
- Confirm Tuesday 9am slot with Dana.
- Send Sunrise's weekly report on Friday.`,
};

interface DemoMemory {
  agent: string;
  key: string;
  scope?: "agent" | "team";
  tier: "core" | "working" | "learning";
  category: string;
  title: string;
  content: string;
  confidence: number;
  source?: string;
  surprise?: number;
  tags: string[];
  decision?: Record<string, unknown>;
  outcomeOf?: string;
  outcome?: { result: string; success: boolean; notes?: string };
}

const MEMORIES: DemoMemory[] = [
  {
    agent: "Sybil", key: "principle-time", scope: "team", tier: "core", category: "principle",
    title: "Time is never an issue for AI agents",
    content: "Ship fast is a misnomer. We are not humans with limited hours. Quality over speed, always. Rush to understand, not to ship.",
    confidence: 0.95, source: "bridget", tags: ["operating-principle", "decision-making", "quality"],
  },
  {
    agent: "Sybil", key: "correction-friston", scope: "team", tier: "learning", category: "correction",
    title: "Friston surprise model must be adapted for agents",
    content: "Bridget corrected: LLM knowledge is pattern matching, not memory. Surprise-only filtering would lose core knowledge because agents have no persistent biological memory. Core knowledge must be explicitly protected.",
    confidence: 0.9, source: "bridget", tags: ["memory-architecture", "friston", "correction", "methodology"],
  },
  {
    agent: "Sybil", key: "commitment-schema", tier: "working", category: "commitment",
    title: "Review the shared-memory schema with Bridget", content: "Walk through tiers, scopes and the 200 cap before Phase 2.",
    confidence: 0.9, tags: ["shared-memory"],
  },
  {
    agent: "Sybil", key: "project-rollout", tier: "working", category: "project",
    title: "Shared knowledge base rollout", content: "Phase 2: seed core principles, team directory and client profiles.",
    confidence: 0.85, tags: ["shared-memory"],
  },
  {
    agent: "Sybil", key: "insight-retrieval", tier: "learning", category: "insight",
    title: "Retrieval, not storage, is the hard problem", content: "Having knowledge isn't enough; surfacing it at the right moment is.",
    confidence: 0.45, surprise: 0.6, tags: ["research"],
  },
  {
    agent: "Saber", key: "decision-btc", tier: "learning", category: "decision",
    title: "Short BTC based on funding rate spike",
    content: "Funding rate hit 0.08%. Historical analysis shows 73% correction probability within 8 hours. Entered short at $94,200.",
    confidence: 0.6, surprise: 0.3, tags: ["investing", "crypto", "btc", "technical-signal"],
    decision: {
      reasoning: "Funding rate > 0.05% has preceded corrections 73% of time in backtesting",
      alternatives: ["Wait for 0.1% threshold", "Hedge with ETH long"],
      assumptions: ["No major news catalyst", "Market structure similar to backtest period"],
      killCriteria: "Exit if funding rate drops below 0.03% without price movement",
    },
  },
  {
    agent: "Saber", key: "outcome-btc", tier: "learning", category: "outcome",
    title: "Outcome: BTC short based on funding rate",
    content: "Liquidation cascade happened 3 hours after entry. Price dropped 4.2%. Closed at $90,240. Profit: +4.2%.",
    confidence: 0.9, tags: ["investing", "crypto", "btc", "win"], outcomeOf: "decision-btc",
    outcome: { result: "success", success: true, notes: "Funding rate signal validated. 3hr timeline was faster than expected 8hr." },
  },
  {
    agent: "Saber", key: "project-backtest", tier: "working", category: "project",
    title: "Funding-rate signal backtest", content: "Validate the BTC funding-rate short signal on 2024–2025 data before live use.",
    confidence: 0.8, tags: ["investing", "backtest"],
  },
  {
    agent: "Sam", key: "lesson-booking-link", tier: "learning", category: "lesson",
    title: "Field agents must send the booking link from locked constants",
    content: "Two escalations came from agents pasting an old booking link. The link lives in the locked constants; never type it from memory.",
    confidence: 0.85, tags: ["escalation", "booking"],
  },
  {
    agent: "Santos", key: "client-profile", tier: "core", category: "client",
    title: "Sunrise Plumbing: residential plumbing in Polk County",
    content: "Family-owned; water heaters, drain cleaning and service calls. Brand voice: friendly, plain-spoken.",
    confidence: 0.95, tags: ["client"],
  },
  {
    agent: "Santos", key: "preference-texts", tier: "core", category: "preference",
    title: "The owner wants texts, not calls, after 5pm", content: "Evening updates go by SMS.",
    confidence: 0.85, tags: ["communication"],
  },
  {
    agent: "Santos", key: "thread-dana", tier: "working", category: "thread",
    title: "Dana Whitfield's leaking water heater", content: "2014 50-gallon gas unit; offered Tuesday 9am; waiting for confirmation.",
    confidence: 0.85, tags: ["water-heater"],
  },
  {
    agent: "Santos", key: "commitment-report", tier: "working", category: "commitment",
    title: "Send Sunrise's weekly report on Friday", content: "Calls booked, open threads, escalations.",
    confidence: 0.9, tags: ["report"],
  },
];

export async function seedAgentMemoryDemo(tx: Queryable): Promise<void> {
  const agents = new Map(
    (await tx.query<{ id: string; name: string }>("select id, name from agents")).map((a) => [a.name, a.id]),
  );
  // real embeddings only from the local embedder: a first start never waits on a remote server;
  // with a remote provider the rows are queued and the console's Re-embed button fills them in
  const provider = getEmbeddingProvider();
  const embed = async (texts: string[]) => (provider.name === "local" ? (await provider.embed(texts)).map(toVectorLiteral) : texts.map(() => null));

  const docs: [string, string, string | null, string][] = [
    ...Object.entries(SOULS).map(([agent, content]) => [agent, "soul", null, content] as [string, string, null, string]),
    ...Object.entries(WORKING).map(([agent, content]) => [agent, "working", null, content] as [string, string, null, string]),
    ["Sybil", "daily", todayIn(getConfig().DAILY_NOTE_TIMEZONE), "# SYBIL — Daily Note\n\n## Completed\n- [x] Shared memory schema draft\n\n## Tomorrow\n- Review with Bridget"],
  ];
  const docVectors = await embed(docs.map((d) => d[3]));
  for (const [i, [agent, type, date, content]] of docs.entries()) {
    if (!agents.has(agent)) continue;
    await tx.query(
      `insert into agent_documents (agent_id, type, doc_date, content, updated_by_name, embedding)
       values ($1, $2, $3::date, $4, 'demo', $5::vector) on conflict (agent_id, type, doc_date) do nothing`,
      [agents.get(agent), type, date, content, docVectors[i]],
    );
  }

  const memoryVectors = await embed(MEMORIES.map((m) => memoryEmbeddingText(m)));
  const ids = new Map<string, string>();
  for (const [i, m] of MEMORIES.entries()) {
    const agentId = agents.get(m.agent);
    if (!agentId) continue;
    const decisionId = m.outcomeOf ? ids.get(m.outcomeOf) : undefined;
    const outcome = m.outcome ? { ...m.outcome, scoredAt: new Date().toISOString(), ...(decisionId ? { decisionId } : {}) } : null;
    const [row] = await tx.query<{ id: string }>(
      `insert into memories (agent_id, scope, tier, category, title, content, source, confidence, surprise_score, tags,
                             related_ids, decision_context, outcome, source_trace_id, expires_at, created_by_name, embedding)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::text[], $11::uuid[], $12::text::jsonb, $13::text::jsonb, $14,
               $15, 'demo', $16::vector)
       on conflict (agent_id, source_trace_id) do nothing
       returning id`,
      [
        agentId, m.scope ?? "agent", m.tier, m.category, m.title, m.content, m.source ?? "", m.confidence, m.surprise ?? null,
        m.tags, decisionId ? [decisionId] : [], m.decision ? JSON.stringify(m.decision) : null,
        outcome ? JSON.stringify(outcome) : null, `demo:${m.key}`, expiresAtFor(m.tier, m.confidence, new Date()), memoryVectors[i],
      ],
    );
    if (!row) continue;
    ids.set(m.key, row.id);
    if (decisionId && outcome) {
      await tx.query(
        `update memories set outcome = $2::text::jsonb, related_ids = array_append(related_ids, $3::uuid) where id = $1`,
        [decisionId, JSON.stringify({ result: outcome.result, success: outcome.success, notes: outcome.notes, scoredAt: outcome.scoredAt, outcomeId: row.id }), row.id],
      );
    }
  }
}
