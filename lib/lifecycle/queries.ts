import "server-only";
import type { z } from "zod";
import type { agentView } from "@/lib/agents/contracts";
import type { Queryable } from "@/lib/db";
import { cursorTime } from "@/lib/db/keyset";
import type { RankedCursor } from "@/lib/http/input-guards";
import type { ServerResponse, WireResponse } from "@/lib/http/contract";
import type { memoryView } from "@/lib/memories/contracts";
import type { agentReportView, Escalation, escalationListView, lifecycleContracts, ReportData } from "./contracts";

type Agent = z.output<typeof agentView>;
type Memory = z.output<typeof memoryView>;
type Outcomes = ServerResponse<typeof lifecycleContracts.outcomes>;

// SQL of the lifecycle domain. Every multi-row update first locks its rows in id order (a CTE with
// ORDER BY id FOR UPDATE), so two consolidations on a real server never deadlock; RLS applies as
// everywhere (the consolidation runs as an HQ admin).

// ── consolidation ──────────────────────────────────────────────────────────────────────────────

/**
 * The lease that lets one consolidation run at a time in the whole deployment, held across the
 * run's steps (job_leases row). What the run changed so far is in consolidation_progress, a row per
 * step; the lease's last_report holds the progress of a run of an earlier release.
 */
const RUN_LEASE = "consolidation-run";

/**
 * Takes the run lease for `holder` when no run holds it (or its holder stopped renewing it): null
 * when another run holds it; else the progress a run of an earlier release that stopped midway left
 * in the lease (null when there is none).
 */
export async function claimConsolidationRun<Progress>(tx: Queryable, p: { holder: string; leaseMs: number }) {
  const rows = await tx.query<{ unfinished: Progress | null }>(
    `with old as (select name, last_report from job_leases where name = $1 for update)
     update job_leases j
        set holder = $2, lease_until = now() + make_interval(secs => $3::float8 / 1000), last_started_at = now(), last_report = null
       from old
      where j.name = old.name and (j.lease_until is null or j.lease_until < now())
     returning old.last_report as unfinished`,
    [RUN_LEASE, p.holder, p.leaseMs],
  );
  return rows.length ? { unfinished: rows[0]!.unfinished } : null;
}

/**
 * The steps runs that stopped midway left (every holder but the one that now holds the lease), taken
 * out: by holder, in step order.
 */
export async function takeStoppedRunsProgress<Progress>(tx: Queryable, p: { holder: string }): Promise<Progress[][]> {
  const rows = await tx.query<{ holder: string; changes: Progress[] }>(
    `with gone as (delete from consolidation_progress where holder <> $1 returning holder, step, changes, created_at)
     select holder, jsonb_agg(changes order by step) as changes from gone group by holder order by min(created_at), holder`,
    [p.holder],
  );
  return rows.map((r) => r.changes);
}

/** One step of a run: renews its lease. False once another run took the lease. */
export async function holdConsolidationRun(tx: Queryable, p: { holder: string; leaseMs: number }) {
  const rows = await tx.query(
    `update job_leases set lease_until = now() + make_interval(secs => $3::float8 / 1000)
      where name = $1 and holder = $2
      returning name`,
    [RUN_LEASE, p.holder, p.leaseMs],
  );
  return rows.length > 0;
}

/** Keeps what one step of a run changed (in the step's transaction, so it matches what is committed). */
export async function recordConsolidationStep(tx: Queryable, p: { holder: string; step: number; changes: unknown }) {
  await tx.query("insert into consolidation_progress (holder, step, changes) values ($1, $2, $3::text::jsonb)", [
    p.holder,
    p.step,
    JSON.stringify(p.changes),
  ]);
}

/** Ends a run: frees the lease and deletes its steps' progress. */
export async function releaseConsolidationRun(tx: Queryable, p: { holder: string }) {
  await tx.query("delete from consolidation_progress where holder = $1", [p.holder]);
  await tx.query(
    `update job_leases set holder = null, lease_until = null, last_finished_at = now(), last_report = null where name = $1 and holder = $2`,
    [RUN_LEASE, p.holder],
  );
}

/**
 * Which of a rule's due rows one step takes: in id order, at most `limit` (null: all), only those
 * after `after` (null: from the first). A real run's steps change what they take, so each starts from
 * the first again; a dry run's steps roll back, so each goes on after the last id the one before took.
 */
export type RuleSlice = { limit: number | null; after: string | null };

export async function archiveDailyNotes(tx: Queryable, p: { before: string; now: string } & RuleSlice) {
  const rows = await tx.query<{ id: string }>(
    `with due as (
       select id from agent_documents
        where type = 'daily' and archived_at is null and doc_date < $1::date and ($4::uuid is null or id > $4)
        order by id limit $3 for update
     )
     update agent_documents d set archived_at = $2::timestamptz from due where d.id = due.id returning d.id`,
    [p.before, p.now, p.limit, p.after],
  );
  return rows.map((r) => r.id).sort();
}

export async function archiveExpiredLearning(tx: Queryable, p: { now: string } & RuleSlice) {
  const rows = await tx.query<{ id: string }>(
    `with due as (
       select id from memories
        where status = 'active' and tier = 'learning' and expires_at is not null and expires_at <= $1::timestamptz
          and accessed_count = 0 and ($3::uuid is null or id > $3)
        order by id limit $2 for update
     )
     update memories m set status = 'archived', archived_at = $1::timestamptz, archive_reason = 'expired', version = version + 1
       from due where m.id = due.id returning m.id`,
    [p.now, p.limit, p.after],
  );
  return rows.map((r) => r.id).sort();
}

export async function pruneResolvedWorking(tx: Queryable, p: { before: string; now: string } & RuleSlice) {
  const rows = await tx.query<{ id: string }>(
    `with due as (
       select id from memories
        where tier = 'working' and status = 'resolved' and resolved_at <= $1::timestamptz and ($4::uuid is null or id > $4)
        order by id limit $3 for update
     )
     update memories m set status = 'archived', archived_at = $2::timestamptz, archive_reason = 'pruned', version = version + 1
       from due where m.id = due.id returning m.id`,
    [p.before, p.now, p.limit, p.after],
  );
  return rows.map((r) => r.id).sort();
}

/** A learning memory due for promotion, with its owner's kind (which decides the core category). */
export type PromotionCandidate = Pick<Memory, "id" | "agentId" | "category" | "title"> & { agentKind: Agent["kind"] };

export function lockPromotionCandidates(
  tx: Queryable,
  p: { categories: readonly string[]; minUses: number; minConfidence: number; createdBefore: string } & RuleSlice,
) {
  return tx.query<PromotionCandidate>(
    `select m.id, m.agent_id as "agentId", a.kind as "agentKind", m.category, m.title
       from memories m join agents a on a.id = m.agent_id
      where m.tier = 'learning' and m.status = 'active' and m.scope = 'agent' and a.role <> 'isolated'
        and m.category = any($1::text[]) and m.accessed_count >= $2 and m.confidence >= $3
        and m.created_at <= $4::timestamptz and ($6::uuid is null or m.id > $6)
      order by m.id
      limit $5
      for update of m`,
    [p.categories, p.minUses, p.minConfidence, p.createdBefore, p.limit, p.after],
  );
}

/** Writes the core memory a learning memory is promoted into (same owner, text and embedding) and archives the source. */
export async function promoteMemory(tx: Queryable, p: { id: string; category: string; now: string }) {
  const rows = await tx.query<{ id: string }>(
    `insert into memories (agent_id, scope, tier, category, title, content, source, confidence, tags, related_ids,
                           promoted_from, occurred_at, created_by_name, embedding)
     select agent_id, 'agent', 'core', $2, title, content, 'consolidation', confidence, tags, array[id], array[id],
            occurred_at, 'consolidation', embedding
       from memories where id = $1
     returning id`,
    [p.id, p.category],
  );
  const promoted = rows[0]!.id;
  await tx.query(
    `update memories set status = 'archived', archived_at = $2::timestamptz, archive_reason = 'promoted',
                         related_ids = array_append(related_ids, $3::uuid), version = version + 1
      where id = $1`,
    [p.id, p.now, promoted],
  );
  return promoted;
}

export async function flagUnverifiedCore(tx: Queryable, p: { before: string; now: string } & RuleSlice) {
  const rows = await tx.query<{ id: string }>(
    `with due as (
       select id from memories
        where tier = 'core' and status = 'active' and updated_at <= $1::timestamptz
          and (verification_flagged_at is null or verification_flagged_at < updated_at) and ($4::uuid is null or id > $4)
        order by id limit $3 for update
     )
     -- never later than the real clock: a replay's future time would outlast the edit that confirms it
     update memories m set verification_flagged_at = least($2::timestamptz, now()) from due where m.id = due.id returning m.id`,
    [p.before, p.now, p.limit, p.after],
  );
  return rows.map((r) => r.id).sort();
}

/** The JSON side: the query formats `createdAt` as ISO text, as the consolidation report stores it. */
export type AwaitingDecision = WireResponse<typeof lifecycleContracts.outcomes>["awaiting"][number];

/** Decisions (not archived) still without an outcome, oldest first, with their age at `now`. */
export function listAwaitingOutcomes(tx: Queryable, p: { now: string; agentId?: string; createdBefore?: string; limit: number }) {
  return tx.query<AwaitingDecision>(
    `select m.id, m.agent_id as "agentId", a.name as "agentName", a.client_id as "clientId", m.title, m.tags,
            to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt",
            greatest(0, floor(extract(epoch from ($1::timestamptz - m.created_at)) / 86400))::int as "ageDays"
       from memories m join agents a on a.id = m.agent_id
      where m.category = 'decision' and m.outcome is null and m.status <> 'archived'
        and ($2::uuid is null or m.agent_id = $2)
        and ($3::timestamptz is null or m.created_at < $3::timestamptz)
      order by m.created_at, m.id
      limit $4`,
    [p.now, p.agentId ?? null, p.createdBefore ?? null, p.limit],
  );
}

// ── job lease (the in-app scheduler) ───────────────────────────────────────────────────────────

/**
 * Claims the day's run of `name`: one UPDATE that succeeds for exactly one instance, and only when
 * the day has not run yet and no other holder's lease is live.
 */
export async function claimDailyLease(tx: Queryable, p: { name: string; holder: string; day: string; leaseSeconds: number }) {
  const rows = await tx.query<{ name: string }>(
    `update job_leases
        set holder = $2, lease_until = now() + make_interval(secs => $4::integer), last_run_for = $3::date, last_started_at = now()
      where name = $1 and (last_run_for is null or last_run_for < $3::date)
        and (lease_until is null or lease_until < now() or holder = $2)
      returning name`,
    [p.name, p.holder, p.day, p.leaseSeconds],
  );
  return rows.length > 0;
}

/** Ends a run: frees the lease and records the day it ran for (a failed run records the day before, so the day is retried). */
export async function releaseLease(tx: Queryable, p: { name: string; holder: string; report: unknown; ranFor: string }) {
  await tx.query(
    `update job_leases set lease_until = null, last_finished_at = now(), last_report = $3::text::jsonb, last_run_for = $4::date
      where name = $1 and holder = $2`,
    [p.name, p.holder, JSON.stringify(p.report ?? null), p.ranFor],
  );
}

// ── nightly reports ────────────────────────────────────────────────────────────────────────────

export type ReportAgent = Pick<Agent, "id" | "name" | "clientId">;

export function listReportableAgents(tx: Queryable) {
  return tx.query<ReportAgent>(
    `select id, name, client_id as "clientId" from agents where role <> 'isolated' order by id`,
  );
}

// the local day [start, end) as timestamps: midnight to midnight in the time zone
const WINDOW = `(select ($2::date)::timestamp at time zone $3::text as s, ($2::date + 1)::timestamp at time zone $3::text as e)`;

export async function reportActivity(tx: Queryable, p: { agentId: string; date: string; timeZone: string }) {
  const args = [p.agentId, p.date, p.timeZone];
  const learned = await tx.query<{ tier: string; n: number }>(
    `select tier, count(*)::int as n from memories, ${WINDOW} w
      where agent_id = $1 and created_at >= w.s and created_at < w.e group by tier`,
    args,
  );
  const made = await tx.query<ReportData["decisions"]["made"][number]>(
    `select id, title from memories, ${WINDOW} w
      where agent_id = $1 and category = 'decision' and created_at >= w.s and created_at < w.e order by created_at, id`,
    args,
  );
  const outcomes = await tx.query<ReportData["decisions"]["outcomesRecorded"][number]>(
    `select id, title, outcome ->> 'decisionId' as "decisionId", (outcome ->> 'success')::boolean as success
       from memories, ${WINDOW} w
      where agent_id = $1 and category = 'outcome' and created_at >= w.s and created_at < w.e order by created_at, id`,
    args,
  );
  const retrieval = await tx.query<{ level: string; calls: number; empty: number }>(
    `select coalesce(level, endpoint) as level, count(*)::int as calls, count(*) filter (where item_count = 0)::int as empty
       from retrieval_log, ${WINDOW} w
      where agent_id = $1 and caller_type = 'agent' and occurred_at >= w.s and occurred_at < w.e group by 1 order by 1`,
    args,
  );
  const raised = await tx.query<ReportData["escalations"]["raised"][number]>(
    `select id, question, severity, status from escalations, ${WINDOW} w
      where agent_id = $1 and created_at >= w.s and created_at < w.e order by created_at, id`,
    args,
  );
  const resolved = await tx.query<{ n: number }>(
    `select count(*)::int as n from escalations, ${WINDOW} w
      where agent_id = $1 and resolved_at >= w.s and resolved_at < w.e`,
    args,
  );
  const suggestions = await tx.query<ReportData["suggestions"]>(
    `select count(*) filter (where created_at >= w.s and created_at < w.e)::int as proposed,
            count(*) filter (where status = 'approved' and reviewed_at >= w.s and reviewed_at < w.e)::int as approved,
            count(*) filter (where status = 'rejected' and reviewed_at >= w.s and reviewed_at < w.e)::int as rejected
       from memory_suggestions, ${WINDOW} w
      where proposed_by_type = 'agent' and proposed_by_id = $1`,
    args,
  );
  const end = await tx.query<{ e: string }>(`select to_char(w.e at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as e from ${WINDOW} w where $1::uuid is not null`, args);
  return { learned, made, outcomes, retrieval, raised, resolved: resolved[0]!.n, suggestions: suggestions[0]!, end: end[0]!.e };
}

type AgentReport = z.output<typeof agentReportView>;
/** A stored report: the day's fields are kept as one JSON document, `data`. */
export type ReportRow = Pick<AgentReport, "agentId" | "date" | "markdown" | "generatedAt"> & {
  id: NonNullable<AgentReport["id"]>;
  data: ReportData;
};

const REPORT_COLUMNS = `id, agent_id as "agentId", to_char(report_date, 'YYYY-MM-DD') as date, data, markdown, generated_at as "generatedAt"`;

/** Stores a day's report once: null when it was already stored. */
export async function insertReport(tx: Queryable, p: { agentId: string; clientId: string | null; date: string; data: unknown; markdown: string }) {
  const rows = await tx.query<ReportRow>(
    `insert into agent_reports (agent_id, client_id, report_date, data, markdown)
     values ($1, $2, $3::date, $4::text::jsonb, $5)
     on conflict (agent_id, report_date) do nothing
     returning ${REPORT_COLUMNS}`,
    [p.agentId, p.clientId, p.date, JSON.stringify(p.data), p.markdown],
  );
  return rows[0] ?? null;
}

export async function reportExists(tx: Queryable, p: { agentId: string; date: string }) {
  return (await tx.query(`select 1 from agent_reports where agent_id = $1 and report_date = $2::date`, [p.agentId, p.date])).length > 0;
}

export function listReports(tx: Queryable, p: { agentId: string; limit: number }) {
  return tx.query<ReportRow>(
    `select ${REPORT_COLUMNS} from agent_reports where agent_id = $1 order by report_date desc limit $2`,
    [p.agentId, p.limit],
  );
}

export async function getReport(tx: Queryable, p: { agentId: string; date: string }) {
  return (await tx.query<ReportRow>(`select ${REPORT_COLUMNS} from agent_reports where agent_id = $1 and report_date = $2::date`, [p.agentId, p.date]))[0] ?? null;
}

// ── escalations ────────────────────────────────────────────────────────────────────────────────

const ESCALATION_SELECT = `
  select e.id, e.agent_id as "agentId", a.name as "agentName", e.client_id as "clientId", e.question, e.severity,
         e.context, e.status, e.known_fix_id as "knownFixId", e.resolution, e.knowledge_entry_id as "knowledgeEntryId",
         e.raised_by_name as "raisedByName", e.resolved_by_name as "resolvedByName", e.resolved_at as "resolvedAt",
         e.created_at as "createdAt", c.name as "clientName"
    from escalations e left join agents a on a.id = e.agent_id left join clients c on c.id = e.client_id`;

export async function insertEscalation(
  tx: Queryable,
  p: { agentId: string; clientId: string | null; question: string; severity: string; context: string; knownFixId: string | null },
) {
  const rows = await tx.query<{ id: string }>(
    `insert into escalations (agent_id, client_id, question, severity, context, known_fix_id)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [p.agentId, p.clientId, p.question, p.severity, p.context, p.knownFixId],
  );
  return (await getEscalation(tx, { id: rows[0]!.id }))!;
}

export async function getEscalation(tx: Queryable, p: { id: string }) {
  return (await tx.query<Escalation>(`${ESCALATION_SELECT} where e.id = $1`, [p.id]))[0] ?? null;
}

// an escalation's place in the list: open ones by severity (0 critical … 3 low), then resolved ones (4)
const ESCALATION_RANK = `case when e.status = 'open' then array_position(array['critical', 'high', 'medium', 'low'], e.severity::text) - 1 else 4 end`;

/**
 * Open escalations first, the most severe and then the longest waiting first; resolved ones newest
 * first: `limit + 1` after `after` (the previous page's last), each with its cursor "rank|time|id".
 */
export interface EscalationFilter {
  severity?: string;
  /** a client's id, or "hq" for escalations of no client */
  clientId?: string;
  knowledgeEntryId?: string;
}

/** The filters on escalations `e` (their own columns), from parameter `$n` on: severity, client, entry. */
const filterWhere = (n: number) => `($${n}::text is null or e.severity = $${n})
        and ($${n + 1}::text is null or ($${n + 1} = 'hq' and e.client_id is null) or e.client_id::text = $${n + 1})
        and ($${n + 2}::uuid is null or e.knowledge_entry_id = $${n + 2})`;
const filterParams = (f: EscalationFilter) => [f.severity ?? null, f.clientId ?? null, f.knowledgeEntryId ?? null];

export function listEscalations(tx: Queryable, p: EscalationFilter & { status?: string; limit: number; after?: RankedCursor }) {
  return tx.query<Escalation & { cursor: string }>(
    `select e.*, e.rank || '|' || case when e.rank < 4 then ${cursorTime('e."createdAt"')} else ${cursorTime('e."resolvedAt"')} end || '|' || e.id as cursor
       from (${ESCALATION_SELECT.replace("select e.id,", `select ${ESCALATION_RANK} as rank, e.id,`)} where ${filterWhere(6)}) e
      where ($1::text is null or e.status = $1)
        and ($3::int is null
             or e.rank > $3
             or (e.rank = $3 and ((e.rank < 4 and (e."createdAt", e.id) > ($4::timestamptz, $5::uuid))
                                  or (e.rank = 4 and (e."resolvedAt", e.id) < ($4::timestamptz, $5::uuid)))))
      order by e.rank, case when e.rank < 4 then e."createdAt" end, case when e.rank < 4 then e.id end, e."resolvedAt" desc, e.id desc
      limit $2 + 1`,
    [p.status ?? null, p.limit, p.after?.rank ?? null, p.after?.at ?? null, p.after?.id ?? null, ...filterParams(p)],
  ).then((rows) => rows.map(({ rank: _rank, ...e }: Escalation & { cursor: string; rank?: number }) => e));
}

/** Conditional on `status = 'open'`: of two concurrent resolutions exactly one applies. */
export async function resolveEscalation(tx: Queryable, p: { id: string; resolution: string; knowledgeEntryId: string | null }) {
  const rows = await tx.query<{ id: string }>(
    `update escalations
        set status = 'resolved', resolution = $2, knowledge_entry_id = $3, resolved_by_name = mhq.current_actor_name(), resolved_at = now()
      where id = $1 and status = 'open' returning id`,
    [p.id, p.resolution, p.knowledgeEntryId],
  );
  return rows.length > 0;
}

/**
 * Who a client's text may name: its contacts' names (opted-out contacts keep none) and its own name
 * and slug. Read only to leave them out of what is published to every client.
 */
export async function clientIdentities(tx: Queryable, p: { clientId: string }) {
  const rows = await tx.query<{ clientNames: string[]; names: string[] }>(
    `select array[c.name, c.slug] as "clientNames",
            coalesce((select array_agg(distinct k.name) from contacts k where k.client_id = c.id and k.name is not null), '{}') as names
       from clients c where c.id = $1`,
    [p.clientId],
  );
  return rows[0] ?? { clientNames: [], names: [] };
}

export async function capturedFixIds(tx: Queryable, p: { ids: string[] }) {
  if (!p.ids.length) return new Set<string>();
  const rows = await tx.query<{ ids: string[] }>(`select mhq.captured_fix_ids($1::uuid[])::text[] as ids`, [p.ids]);
  return new Set(rows[0]?.ids ?? []);
}

export async function escalationCounts(tx: Queryable, f: EscalationFilter = {}) {
  const rows = await tx.query<z.output<typeof escalationListView>["counts"]>(
    `select count(*) filter (where e.status = 'open')::int as open, count(*) filter (where e.status = 'resolved')::int as resolved,
            count(*) filter (where e.known_fix_id is not null)::int as "answeredByKnownFix"
       from escalations e
      where ${filterWhere(1)}`,
    filterParams(f),
  );
  return rows[0]!;
}

/** Escalations by id as the caller may see them, in id order. */
export function escalationsById(tx: Queryable, p: { ids: string[] }) {
  return tx.query<Escalation>(`${ESCALATION_SELECT} where e.id = any($1::uuid[]) order by e.id`, [p.ids]);
}

/** Locks the escalations about to be resolved together, in id order (two bulk resolves never deadlock). */
export async function lockEscalations(tx: Queryable, p: { ids: string[] }) {
  await tx.query(`select id from escalations where id = any($1::uuid[]) order by id for update`, [p.ids]);
}

/** The open escalations other than `exceptId`, newest first: the candidates to compare with one. */
export function openEscalationsExcept(tx: Queryable, p: { exceptId: string; limit: number }) {
  return tx.query<Escalation>(
    `${ESCALATION_SELECT} where e.status = 'open' and e.id <> $1 order by e.created_at desc, e.id limit $2`,
    [p.exceptId, p.limit],
  );
}

// ── outcomes across agents ─────────────────────────────────────────────────────────────────────

/** Per agent: the total (category null), then one row per tag; the service adds the rate. */
export type SuccessRate = Omit<Outcomes["rates"][number], "successRate">;

export function successRates(tx: Queryable) {
  return tx.query<SuccessRate>(
    `with decisions as (
       select m.agent_id, a.name, m.tags, m.outcome from memories m join agents a on a.id = m.agent_id
        where m.category = 'decision' and m.status <> 'archived'
     )
     select agent_id as "agentId", name as "agentName", null as category, count(*)::int as decisions,
            count(outcome)::int as scored, count(*) filter (where (outcome ->> 'success')::boolean)::int as successes
       from decisions group by agent_id, name
     union all
     select agent_id, name, t.tag, count(*)::int, count(outcome)::int, count(*) filter (where (outcome ->> 'success')::boolean)::int
       from decisions cross join lateral unnest(case when cardinality(tags) = 0 then array['untagged'] else tags end) t(tag)
      group by agent_id, name, t.tag
     order by "agentName", "agentId", category nulls first`,
  );
}

export type ScoredDecision = Outcomes["recent"][number];

export function recentScoredDecisions(tx: Queryable, p: { limit: number }) {
  return tx.query<ScoredDecision>(
    `select m.id, m.agent_id as "agentId", a.name as "agentName", m.title, m.outcome ->> 'outcomeId' as "outcomeId",
            (m.outcome ->> 'success')::boolean as success, m.outcome ->> 'result' as result, m.outcome ->> 'scoredAt' as "scoredAt"
       from memories m join agents a on a.id = m.agent_id
      where m.category = 'decision' and m.outcome is not null
      order by m.outcome ->> 'scoredAt' desc, m.id limit $1`,
    [p.limit],
  );
}
