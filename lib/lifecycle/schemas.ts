import { z } from "zod";
import { createKnowledgeBody } from "@/lib/knowledge/schemas";

// Request and response schemas of the lifecycle endpoints: consolidation, nightly reports,
// escalations and outcomes.

const timestamp = z.iso.datetime({ offset: true });
export const reportDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD").refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), "not a calendar date");

// ── consolidation ──────────────────────────────────────────────────────────────────────────────

export const consolidateBody = z
  .object({
    /** replay the job as of this time (defaults to now) */
    now: timestamp.optional(),
    /** compute the report and change nothing */
    dryRun: z.boolean().optional(),
  })
  .strict();

const idList = z.object({ count: z.number().int(), ids: z.array(z.string()) });

export const consolidationReport = z.object({
  asOf: z.string(),
  /** the local calendar day of `asOf` in DAILY_NOTE_TIMEZONE */
  today: z.string(),
  dryRun: z.boolean(),
  archived: z.object({ dailyNotes: idList, expiredLearning: idList }),
  pruned: z.object({ resolvedWorking: idList }),
  purged: z.object({ agentNotes: z.object({ count: z.number().int() }) }),
  promoted: z.object({
    count: z.number().int(),
    items: z.array(z.object({ id: z.string(), agentId: z.string(), category: z.string(), title: z.string(), promotedFrom: z.array(z.string()) })),
  }),
  flaggedForVerification: idList,
  awaitingOutcomes: z.object({
    count: z.number().int(),
    items: z.array(z.object({ id: z.string(), agentId: z.string(), agentName: z.string(), title: z.string(), createdAt: z.string(), ageDays: z.number().int() })),
  }),
  reports: z.object({ date: z.string(), count: z.number().int(), ids: z.array(z.string()) }),
  /** rows the run changed (0 for a dry run's counterpart that already ran) */
  changes: z.number().int(),
});
export type ConsolidationReport = z.infer<typeof consolidationReport>;

// ── nightly reports ────────────────────────────────────────────────────────────────────────────

export const listReportsQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(30) }).strict();

const count = z.number().int();
export const reportData = z.object({
  agentId: z.string(),
  agentName: z.string(),
  date: z.string(),
  learned: z.object({ total: count, core: count, working: count, learning: count }),
  decisions: z.object({
    made: z.array(z.object({ id: z.string(), title: z.string() })),
    outcomesRecorded: z.array(z.object({ id: z.string(), title: z.string(), decisionId: z.string().nullable(), success: z.boolean().nullable() })),
    awaitingOutcomes: z.array(z.object({ id: z.string(), title: z.string(), createdAt: z.string(), ageDays: count })),
  }),
  retrieval: z.object({ calls: count, byLevel: z.record(z.string(), count), emptyResults: count }),
  escalations: z.object({ raised: z.array(z.object({ id: z.string(), question: z.string(), severity: z.string(), status: z.string() })), resolved: count }),
  suggestions: z.object({ proposed: count, approved: count, rejected: count }),
});
export type ReportData = z.infer<typeof reportData>;

export const agentReport = z.object({
  id: z.string().nullable(),
  agentId: z.string(),
  date: z.string(),
  stored: z.boolean(),
  generatedAt: z.string(),
  data: reportData,
  markdown: z.string(),
});
export type AgentReport = z.infer<typeof agentReport>;

// ── escalations ────────────────────────────────────────────────────────────────────────────────

export const escalationSeverity = z.enum(["low", "medium", "high", "critical"]);
export const escalationStatus = z.enum(["open", "resolved"]);

export const createEscalationBody = z
  .object({
    question: z.string().trim().min(1).max(4000),
    severity: escalationSeverity,
    context: z.string().max(20000).optional(),
  })
  .strict();

export const listEscalationsQuery = z
  .object({
    status: escalationStatus.optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();

export const resolveEscalationBody = z
  .object({
    resolution: z.string().trim().min(1).max(20000),
    /** the reusable fix, written to the knowledge base and linked to the escalation */
    knowledge: createKnowledgeBody.optional(),
  })
  .strict();

export const escalation = z.object({
  id: z.string(),
  agentId: z.string(),
  agentName: z.string().nullable(),
  clientId: z.string().nullable(),
  question: z.string(),
  severity: escalationSeverity,
  context: z.string(),
  status: escalationStatus,
  knownFixId: z.string().nullable(),
  resolution: z.string().nullable(),
  knowledgeEntryId: z.string().nullable(),
  raisedByName: z.string(),
  resolvedByName: z.string().nullable(),
  resolvedAt: z.date().nullable(),
  createdAt: z.date(),
});
export type Escalation = z.infer<typeof escalation>;

// ── outcomes across agents ─────────────────────────────────────────────────────────────────────

export const outcomesQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(200) }).strict();
