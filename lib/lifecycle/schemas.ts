import { z } from "zod";
import { apiDate, apiTimestamp, rankedKeysetCursor } from "@/lib/http/input-guards";
import { createKnowledgeBody } from "@/lib/knowledge/schemas";

// Request schemas of the lifecycle endpoints (their answers: contracts.ts): consolidation, nightly reports,
// escalations and outcomes.

/** The longest resolution: a fix that is given is kept, and published, at most this long. */
export const RESOLUTION_MAX_CHARS = 20_000;

export const reportDate = apiDate;

// ── consolidation ──────────────────────────────────────────────────────────────────────────────

/**
 * The times the consolidation can be replayed for: from 1970 to the end of 9998. Every day the job
 * derives from `now` (a week and a month back, the day before) then stays a four-digit year, which
 * both its date arithmetic and Postgres's date type hold; year 0001 fell to year 0000 and failed.
 */
const REPLAY_FROM = Date.UTC(1970, 0, 1);
const REPLAY_UNTIL = Date.UTC(9999, 0, 1);
const replayTime = apiTimestamp.refine((v) => {
  const t = Date.parse(v);
  return t >= REPLAY_FROM && t < REPLAY_UNTIL;
}, "replay a time from 1970-01-01 to 9998-12-31");

export const consolidateBody = z
  .object({
    now: replayTime.optional().describe("replay the job as of this time (defaults to now), from 1970 to the end of 9998"),
    dryRun: z.boolean().optional().describe("compute the report and change nothing"),
  })
  .strict();

// ── nightly reports ────────────────────────────────────────────────────────────────────────────

export const listReportsQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(30) }).strict();

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
    severity: escalationSeverity.optional().describe("only escalations of this severity"),
    clientId: z
      .union([z.uuid(), z.literal("hq")])
      .optional()
      .describe("only this client's escalations; `hq`: those of no client (raised by internal agents)"),
    knowledgeEntryId: z.uuid().optional().describe("only the escalations resolved with this knowledge entry as their fix"),
    limit: z.coerce.number().int().min(1).max(500).default(100),
    cursor: rankedKeysetCursor.optional().describe("the nextCursor of the previous page"),
  })
  .strict();

/** Most other escalations one resolve may close with the same fix. */
export const ALSO_RESOLVE_MAX = 100;

export const similarEscalationsQuery = z
  .object({ limit: z.coerce.number().int().min(1).max(ALSO_RESOLVE_MAX).default(20) })
  .strict();

export const resolveEscalationBody = z
  .object({
    resolution: z
      .string()
      .trim()
      .min(1, "resolution is required: write the fix that was given")
      .max(RESOLUTION_MAX_CHARS)
      .describe("the fix that was given: required, never blank — it is what a later similar escalation is answered with"),
    knowledge: z
      .union([createKnowledgeBody, z.literal(false)])
      .optional()
      .describe(
        "the knowledge entry that publishes the fix, linked to the escalation. Omitted: one is composed from the question and the resolution, with the personal data the PII detector finds (names, the client's name, addresses, phone numbers, emails, SSNs, card numbers) left out or generalised — preview it with POST /escalations/{id}/draft. `false`: nothing is published (a one-off with nothing to reuse, or a draft the resolver refuses)",
      ),
    knowledgeEntryId: z
      .uuid()
      .optional()
      .describe("instead of `knowledge` (not both): the published entry that already answers it, linked as its fix"),
    alsoResolve: z
      .array(z.uuid())
      .max(ALSO_RESOLVE_MAX)
      .optional()
      .describe(
        "other open escalations (e.g. from GET /escalations/{id}/similar) resolved in the same step with the same fix and linked to the same entry: all or nothing, each audited. Another client's escalation gets the fix as published (the entry's Fix), never this client's own words, so it needs a published or linked entry",
      ),
  })
  .strict();

export const draftEscalationEntryBody = z
  .object({
    resolution: z
      .string()
      .trim()
      .max(RESOLUTION_MAX_CHARS)
      .optional()
      .describe("the fix as typed so far (may be empty): the draft's **Fix:** line"),
  })
  .strict();

// ── outcomes across agents ─────────────────────────────────────────────────────────────────────

export const outcomesQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(200) }).strict();
