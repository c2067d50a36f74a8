import { z } from "zod";
import { agentIdParam, apiViews, defineContract, idParam, timestamp } from "@/lib/http/contract";
import { knowledgeEntryView, knowledgeSearchHitView } from "@/lib/knowledge/contracts";
import { knowledgeCategory } from "@/lib/knowledge/schemas";
import { PERSONAL_DATA_KINDS } from "@/lib/review/pii";
import {
  consolidateBody,
  createEscalationBody,
  draftEscalationEntryBody,
  escalationSeverity,
  escalationStatus,
  listEscalationsQuery,
  listReportsQuery,
  outcomesQuery,
  resolveEscalationBody,
  similarEscalationsQuery,
} from "./schemas";

const count = z.number().int();
const idList = z.object({ count, ids: z.array(z.uuid()) }).strict();
/** a calendar day, YYYY-MM-DD */
const day = z.string();

// ── consolidation ──────────────────────────────────────────────────────────────────────────────

export const consolidationReportView = z
  .object({
    asOf: timestamp,
    today: day.describe("the local calendar day of `asOf` in DAILY_NOTE_TIMEZONE"),
    dryRun: z.boolean(),
    archived: z.object({ dailyNotes: idList, expiredLearning: idList }).strict(),
    pruned: z.object({ resolvedWorking: idList }).strict(),
    purged: z.object({ agentNotes: z.object({ count }).strict() }).strict(),
    promoted: z
      .object({
        count,
        items: z.array(
          z.object({ id: z.uuid(), agentId: z.uuid(), category: z.string(), title: z.string(), promotedFrom: z.array(z.uuid()) }).strict(),
        ),
      })
      .strict(),
    flaggedForVerification: idList,
    awaitingOutcomes: z
      .object({
        count,
        items: z.array(
          z.object({ id: z.uuid(), agentId: z.uuid(), agentName: z.string(), title: z.string(), createdAt: timestamp, ageDays: count }).strict(),
        ),
      })
      .strict(),
    reports: z.object({ date: day, count, ids: z.array(z.uuid()) }).strict(),
    changes: count.describe("rows the run changed (0 for a dry run's counterpart that already ran)"),
  })
  .strict().register(apiViews, { id: "ConsolidationReport" });
/** The consolidation's report as the job builds it (ISO strings for times). */
export type ConsolidationReport = z.input<typeof consolidationReportView>;

// ── nightly reports ────────────────────────────────────────────────────────────────────────────

/** What a nightly report says about an agent's day (stored as JSON with the report). */
export const reportDataView = z
  .object({
    agentId: z.uuid(),
    agentName: z.string(),
    date: day,
    learned: z.object({ total: count, core: count, working: count, learning: count }).strict(),
    decisions: z
      .object({
        made: z.array(z.object({ id: z.uuid(), title: z.string() }).strict()),
        outcomesRecorded: z.array(
          z.object({ id: z.uuid(), title: z.string(), decisionId: z.uuid().nullable(), success: z.boolean().nullable() }).strict(),
        ),
        awaitingOutcomes: z.array(z.object({ id: z.uuid(), title: z.string(), createdAt: timestamp, ageDays: count }).strict()),
      })
      .strict(),
    retrieval: z.object({ calls: count, byLevel: z.record(z.string(), count), emptyResults: count }).strict(),
    escalations: z
      .object({
        raised: z.array(z.object({ id: z.uuid(), question: z.string(), severity: z.string(), status: z.string() }).strict()),
        resolved: count,
      })
      .strict(),
    suggestions: z.object({ proposed: count, approved: count, rejected: count }).strict(),
  })
  .strict();
export type ReportData = z.input<typeof reportDataView>;

export const agentReportView = reportDataView
  .extend({
    id: z.uuid().nullable().describe("null for a day computed on demand (not stored)"),
    stored: z.boolean(),
    generatedAt: timestamp,
    markdown: z.string(),
  })
  .strict().register(apiViews, { id: "AgentReport" });

// ── escalations ────────────────────────────────────────────────────────────────────────────────

export const escalationView = z
  .object({
    id: z.uuid(),
    agentId: z.uuid(),
    agentName: z.string().nullable(),
    clientId: z.uuid().nullable(),
    /** the client it concerns (null: none, or a client the caller may not see) */
    clientName: z.string().nullable(),
    question: z.string(),
    severity: escalationSeverity,
    context: z.string(),
    status: escalationStatus,
    knownFixId: z.uuid().nullable().describe("the knowledge entry (a captured fix of an earlier escalation) answered when this one was raised"),
    resolution: z.string().nullable(),
    knowledgeEntryId: z.uuid().nullable().describe("the fix written to the knowledge base on resolving"),
    raisedByName: z.string(),
    resolvedByName: z.string().nullable(),
    resolvedAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .strict().meta({ description: "A question an agent raised to HQ, and its resolution." }).register(apiViews, { id: "Escalation" });
export type Escalation = z.output<typeof escalationView>;

export const escalationListView = z
  .object({
    escalations: z.array(escalationView),
    nextCursor: z.string().nullable().describe("pass as `cursor` for the next page; null on the last page"),
    counts: z
      .object({ open: count, resolved: count, answeredByKnownFix: count })
      .strict()
      .describe("of every escalation the caller may see that the severity, client and entry filters keep, whatever the status and the page"),
  })
  .strict();

export const raisedEscalationView = z
  .object({
    escalation: escalationView,
    similarKnowledge: z.array(knowledgeSearchHitView).describe("the knowledge base's best matches for the question (the known fix first)"),
    knownFix: knowledgeSearchHitView.optional().describe("a captured fix of an earlier resolved escalation close enough to this question: try it first"),
  })
  .strict();

export const personalDataRemovedView = z
  .array(
    z
      .object({
        kind: z.enum(PERSONAL_DATA_KINDS),
        from: z.enum(["question", "resolution"]),
        count: count.describe("how many pieces of this kind were left out or generalised"),
      })
      .strict(),
  )
  .describe(
    "what the PII detector found in the question or the resolution and left out of the composed entry or put in general terms (a person's name, the client's name, a street address, a phone number, an email address, an SSN, a card number); never the text itself",
  );

/** A knowledge entry as HQ composes it from an escalation, before it is published. */
export const composedEntryView = z
  .object({ title: z.string(), content: z.string(), category: knowledgeCategory, tags: z.array(z.string()) })
  .strict()
  .register(apiViews, { id: "ComposedKnowledgeEntry" });

export const escalationEntryDraftView = z
  .object({
    draft: composedEntryView.describe("the entry resolving without a knowledge body would publish now (with this resolution)"),
    personalDataRemoved: personalDataRemovedView,
  })
  .strict();

export const resolvedEscalationView = z
  .object({
    escalation: escalationView,
    knowledge: knowledgeEntryView.optional(),
    personalDataRemoved: personalDataRemovedView
      .optional()
      .describe("present when the entry was composed from the question (no knowledge body): what was left out of it or generalised"),
    alsoResolved: z.array(escalationView).optional().describe("the `alsoResolve` escalations, resolved with the same fix and linked to the same entry"),
  })
  .strict();

export const similarEscalationsView = z
  .object({
    similar: z
      .array(
        z
          .object({
            escalation: escalationView,
            similarity: z.number().describe("0–1: closeness in meaning and shared words, the measure a known fix is offered by"),
          })
          .strict(),
      )
      .describe("open escalations (other than this one) close enough to be the same issue, most alike first"),
  })
  .strict();

// ── outcomes across agents ─────────────────────────────────────────────────────────────────────

export const outcomesOverviewView = z
  .object({
    awaiting: z.array(
      z
        .object({
          id: z.uuid(),
          agentId: z.uuid(),
          agentName: z.string(),
          clientId: z.uuid().nullable(),
          title: z.string(),
          tags: z.array(z.string()),
          createdAt: timestamp,
          ageDays: count,
        })
        .strict(),
    ).describe("decisions still without an outcome, oldest first"),
    rates: z.array(
      z
        .object({
          agentId: z.uuid(),
          agentName: z.string(),
          category: z.string().nullable(),
          decisions: count,
          scored: count,
          successes: count,
          successRate: z.number().nullable(),
        })
        .strict(),
    ).describe("per agent: the total (category null), then one row per tag of its decisions"),
    recent: z.array(
      z
        .object({
          id: z.uuid(),
          agentId: z.uuid(),
          agentName: z.string(),
          title: z.string(),
          outcomeId: z.uuid().nullable(),
          success: z.boolean(),
          result: z.string(),
          scoredAt: timestamp,
        })
        .strict(),
    ).describe("the latest scored decisions with their outcomes"),
  })
  .strict().register(apiViews, { id: "OutcomesOverview" });

const agentParams = z.object({ agentId: agentIdParam }).strict();

export const lifecycleContracts = {
  consolidate: defineContract({
    id: "lifecycle.consolidate",
    errors: [
      { code: "service_unavailable", when: "Another run (the scheduled one, another instance's) held the run lease for 10 minutes: run it again once that one has finished." },
      { code: "service_unavailable", when: "This run lost its lease midway (its steps were held up for a minute): what it changed is audited; run it again to finish." },
    ],
    method: "POST", path: "/api/v1/jobs/consolidate", permission: "lifecycle.consolidate",
    summary:
      "Nightly consolidation: archive daily notes and expired learning, prune resolved working items, purge notes, promote, flag for verification, list decisions awaiting outcomes, write reports (now replays; dryRun changes nothing)",
    body: consolidateBody, response: consolidationReportView,
  }),
  listReports: defineContract({
    id: "lifecycle.listReports",
    method: "GET", path: "/api/v1/agents/{agentId}/reports", permission: "reports.read",
    summary: "The agent's nightly reports, newest first", params: agentParams, query: listReportsQuery,
    response: z.object({ reports: z.array(agentReportView) }).strict(),
  }),
  getReport: defineContract({
    id: "lifecycle.getReport",
    method: "GET", path: "/api/v1/agents/{agentId}/reports/{date}", permission: "reports.read",
    summary: "One day's nightly report as fields and markdown (HQ: a day not stored yet is computed on demand)",
    // the date (YYYY-MM-DD, a day of the calendar) is checked by the service: 422 naming `date`
    params: z.object({ agentId: agentIdParam, date: z.string() }).strict(),
    response: z.object({ report: agentReportView }).strict(),
  }),
  listEscalations: defineContract({
    id: "lifecycle.listEscalations",
    method: "GET", path: "/api/v1/escalations", permission: "escalations.read",
    summary: "Escalations (a field agent: its own client's), with counts", query: listEscalationsQuery, response: escalationListView,
  }),
  raiseEscalation: defineContract({
    id: "lifecycle.raiseEscalation",
    method: "POST", path: "/api/v1/escalations", permission: "escalations.raise",
    summary: "Raise an escalation: similar knowledge, and a captured fix of an earlier resolved escalation first when one matches",
    body: createEscalationBody, response: raisedEscalationView, status: 201,
  }),
  resolveEscalation: defineContract({
    id: "lifecycle.resolveEscalation",
    errors: [
      { code: "conflict", when: "The escalation, or one named in alsoResolve, is already resolved." },
      { code: "validation_failed", when: "alsoResolve names an escalation the caller cannot see, or names another client's escalation while no entry is published or linked." },
    ],
    method: "POST", path: "/api/v1/escalations/{id}/resolve", permission: "escalations.resolve",
    summary:
      "Resolve an escalation with the fix given, published to the knowledge base (or an existing entry linked) as its known fix; " +
      "`alsoResolve` closes similar open escalations with the same fix in the same step (all or nothing); " +
      "an entry composed from the question carries no personal data (personalDataRemoved says what was left out or generalised; preview it with the draft endpoint)",
    params: z.object({ id: idParam("Escalation") }).strict(), body: resolveEscalationBody, response: resolvedEscalationView,
  }),
  draftEscalationEntry: defineContract({
    id: "lifecycle.draftEscalationEntry",
    errors: [{ code: "conflict", when: "The escalation is already resolved: there is nothing left to publish." }],
    method: "POST", path: "/api/v1/escalations/{id}/draft", permission: "escalations.resolve",
    summary:
      "Preview the knowledge entry resolving without a knowledge body would publish: composed from the question and the resolution, with the personal data the PII detector finds left out or generalised (changes nothing)",
    params: z.object({ id: idParam("Escalation") }).strict(), body: draftEscalationEntryBody, response: escalationEntryDraftView,
  }),
  getEscalation: defineContract({
    id: "lifecycle.getEscalation",
    method: "GET", path: "/api/v1/escalations/{id}", permission: "escalations.read",
    summary: "One escalation (a field agent: its own client's)",
    params: z.object({ id: idParam("Escalation") }).strict(), response: z.object({ escalation: escalationView }).strict(),
  }),
  similarEscalations: defineContract({
    id: "lifecycle.similarEscalations",
    method: "GET", path: "/api/v1/escalations/{id}/similar", permission: "escalations.read",
    summary: "Open escalations that are likely the same issue as this one (to resolve together with the same fix)",
    params: z.object({ id: idParam("Escalation") }).strict(), query: similarEscalationsQuery, response: similarEscalationsView,
  }),
  outcomes: defineContract({
    id: "lifecycle.outcomes",
    method: "GET", path: "/api/v1/outcomes", permission: "outcomes.read",
    summary: "Decisions awaiting outcomes, success rates per agent and tag, recent outcomes", query: outcomesQuery,
    response: outcomesOverviewView,
  }),
};
