import "server-only";
import type { z } from "zod";
import type { Queryable } from "@/lib/db";
import type { decisionContextView, memoryView, outcomeView } from "./contracts";
import type { MemoryScope, MemoryStatus, MemoryTier } from "./rules";

export type DecisionContext = z.output<typeof decisionContextView>;

export type Outcome = z.output<typeof outcomeView>;

export type MemoryRow = z.output<typeof memoryView>;

const COLUMNS = `id, agent_id as "agentId", scope, tier, category, title, content, source, confidence,
  surprise_score as "surpriseScore", tags, related_ids::text[] as "relatedIds", decision_context as "decisionContext",
  outcome, source_trace_id as "sourceTraceId", status, resolved_at as "resolvedAt", archived_at as "archivedAt",
  archive_reason as "archiveReason", expires_at as "expiresAt", accessed_count as "accessedCount",
  last_accessed_at as "lastAccessedAt", occurred_at as "occurredAt", version, created_by_name as "createdByName",
  (embedding is not null) as embedded, created_at as "createdAt", updated_at as "updatedAt",
  promoted_from::text[] as "promotedFrom",
  coalesce(verification_flagged_at >= updated_at, false) as "needsVerification"`;

export async function getMemory(tx: Queryable, p: { id: string }) {
  return (await tx.query<MemoryRow>(`select ${COLUMNS} from memories where id = $1`, [p.id]))[0] ?? null;
}

export async function findByTrace(tx: Queryable, p: { agentId: string; sourceTraceId: string }) {
  const rows = await tx.query<MemoryRow>(`select ${COLUMNS} from memories where agent_id = $1 and source_trace_id = $2`, [
    p.agentId,
    p.sourceTraceId,
  ]);
  return rows[0] ?? null;
}

/** Serialises memory writes per agent, so two concurrent writers never both slip past the cap. */
export async function lockAgentMemories(tx: Queryable, p: { agentId: string }) {
  await tx.query("select pg_advisory_xact_lock(hashtextextended('memories:' || $1, 0))", [p.agentId]);
}

export interface NewMemory {
  agentId: string;
  scope: MemoryScope;
  tier: MemoryTier;
  category: string;
  title: string;
  content: string;
  source: string;
  confidence: number;
  surpriseScore: number | null;
  tags: string[];
  relatedIds: string[];
  decisionContext: DecisionContext | null;
  outcome: Outcome | null;
  sourceTraceId: string | null;
  expiresAt: Date | null;
  occurredAt: string | null;
  createdByName: string;
  embedding: string | null;
}

/** Inserts a memory; null when the agent already wrote one with the same sourceTraceId. */
export async function insertMemory(tx: Queryable, m: NewMemory) {
  const rows = await tx.query<MemoryRow>(
    `insert into memories (agent_id, scope, tier, category, title, content, source, confidence, surprise_score, tags,
                           related_ids, decision_context, outcome, source_trace_id, expires_at, occurred_at,
                           created_by_name, embedding)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::text[], $11::uuid[], $12::text::jsonb, $13::text::jsonb, $14, $15,
             coalesce($16::timestamptz, now()), $17, $18::vector)
     on conflict (agent_id, source_trace_id) do nothing
     returning ${COLUMNS}`,
    [
      m.agentId, m.scope, m.tier, m.category, m.title, m.content, m.source, m.confidence, m.surpriseScore, m.tags,
      m.relatedIds, json(m.decisionContext), json(m.outcome), m.sourceTraceId, m.expiresAt, m.occurredAt,
      m.createdByName, m.embedding,
    ],
  );
  return rows[0] ?? null;
}

// sent as text and cast `::text::jsonb`: postgres.js would JSON-encode a string bound to a jsonb parameter again
const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/**
 * Keeps at most `cap` active agent-scope memories for the agent by archiving (never deleting) the
 * least valuable: lowest confidence, then least accessed, then oldest. Core-tier memories are never
 * archived — the memory just written is judged like any other. Returns what it archived.
 *
 * Concurrent writers of one agent take turns (a transaction-scoped advisory lock on the agent), and
 * each counts in a statement that starts after the previous writer committed, so two writers can
 * never both see room for one more. The victims are locked in id order, as every multi-row update of
 * memories does, so this never deadlocks with the access-counter fold.
 */
export async function archiveOverCap(tx: Queryable, p: { agentId: string; cap: number }) {
  await tx.query(`select pg_advisory_xact_lock(hashtextextended('mhq.memory_cap:' || $1::text, 0))`, [p.agentId]);
  const victims = await tx.query<{ id: string }>(
    `with active as (
       select id, tier, confidence, accessed_count, created_at from memories
        where agent_id = $1 and scope = 'agent' and status = 'active'
     )
     select id from active
      where tier <> 'core'
      order by confidence, accessed_count, created_at, id
      limit greatest((select count(*) from active) - $2, 0)`,
    [p.agentId, p.cap],
  );
  if (!victims.length) return [];
  const ids = victims.map((v) => v.id);
  await tx.query(`select id from memories where id = any ($1::uuid[]) order by id for no key update`, [ids]);
  return tx.query<Pick<MemoryRow, "id" | "title">>(
    `update memories set status = 'archived', archived_at = now(), archive_reason = 'cap', version = version + 1
      where id = any ($1::uuid[]) and status = 'active'
      returning id, title`,
    [ids],
  );
}

export interface MemoryFilter {
  agentId: string;
  tier?: string;
  category?: string;
  /** undefined: every status */
  status?: string;
  scope?: string;
  q?: string;
  /** scored decisions: `awaiting` (no outcome yet), `worked`, `failed` */
  outcome?: string;
  limit: number;
  offset: number;
}

/** One agent's memories, newest first, with the total count of the filter for paging. */
export async function listMemories(tx: Queryable, f: MemoryFilter) {
  const rows = await tx.query<MemoryRow & { total: number }>(
    `select ${COLUMNS}, count(*) over () as total from memories
      where agent_id = $1
        and ($2::text is null or tier = $2)
        and ($3::text is null or category = $3)
        and ($4::text is null or status = $4)
        and ($5::text is null or scope = $5)
        and ($6::text is null or fts @@ websearch_to_tsquery('english', $6) or title ilike '%' || $6 || '%')
        and ($9::text is null
             or ($9 = 'awaiting' and outcome is null)
             or ($9 = 'worked' and (outcome ->> 'success')::boolean)
             or ($9 = 'failed' and not (outcome ->> 'success')::boolean))
      order by created_at desc, id
      limit $7 offset $8`,
    [f.agentId, f.tier ?? null, f.category ?? null, f.status ?? null, f.scope ?? null, f.q ?? null, f.limit, f.offset, f.outcome ?? null],
  );
  const total = rows[0] ? Number(rows[0].total) : 0;
  return { memories: rows.map(({ total: _total, ...m }) => m), total };
}

export interface MemoryChanges {
  tier?: string;
  category?: string;
  title?: string;
  content?: string;
  confidence?: number;
  tags?: string[];
  status?: MemoryStatus;
  surpriseScore?: number | null;
  decisionContext?: DecisionContext | null;
  relatedIds?: string[];
  outcome?: Outcome;
  /** a new expiry, or the stored one carried over (a Date or ISO text: both bind to timestamptz) */
  expiresAt?: MemoryRow["expiresAt"];
  embedding?: string | null;
}

const CHANGE_COLUMNS: Record<keyof MemoryChanges, [column: string, cast: string]> = {
  tier: ["tier", ""],
  category: ["category", ""],
  title: ["title", ""],
  content: ["content", ""],
  confidence: ["confidence", ""],
  tags: ["tags", "::text[]"],
  status: ["status", ""],
  surpriseScore: ["surprise_score", ""],
  decisionContext: ["decision_context", "::text::jsonb"],
  relatedIds: ["related_ids", "::uuid[]"],
  outcome: ["outcome", "::text::jsonb"],
  expiresAt: ["expires_at", "::timestamptz"],
  embedding: ["embedding", "::vector"],
};

/**
 * Applies `changes` and bumps the version; with `expectedVersion` only if nobody changed the
 * memory since (null otherwise). A status change stamps or clears its timestamp.
 */
export async function updateMemory(tx: Queryable, p: { id: string; expectedVersion?: number; changes: MemoryChanges }) {
  const params: unknown[] = [p.id, p.expectedVersion ?? null];
  const sets = ["version = version + 1"];
  for (const [key, value] of Object.entries(p.changes) as [keyof MemoryChanges, unknown][]) {
    if (value === undefined) continue;
    const [column, cast] = CHANGE_COLUMNS[key];
    params.push(key === "decisionContext" || key === "outcome" ? json(value) : value);
    sets.push(`${column} = $${params.length}${cast}`);
  }
  if (p.changes.status === "resolved") sets.push("resolved_at = coalesce(resolved_at, now())");
  if (p.changes.status === "archived") sets.push("archived_at = coalesce(archived_at, now())", "archive_reason = coalesce(archive_reason, 'manual')");
  if (p.changes.status === "active") sets.push("resolved_at = null", "archived_at = null", "archive_reason = null");
  const rows = await tx.query<MemoryRow>(
    `update memories set ${sets.join(", ")}
      where id = $1 and ($2::integer is null or version = $2)
      returning ${COLUMNS}`,
    params,
  );
  return rows[0] ?? null;
}

// ── boot context ────────────────────────────────────────────────────────────────────────────────

/** Active memories of one tier (and optionally categories) the agent owns, best first. */
export function listActiveByTier(
  tx: Queryable,
  p: { agentId: string; tier: MemoryTier; categories?: string[]; sinceDays?: number; limit: number; order: "confidence" | "recent" | "oldest" },
) {
  const order = { confidence: "confidence desc, created_at desc", recent: "updated_at desc", oldest: "occurred_at, created_at" }[p.order];
  return tx.query<MemoryRow>(
    `select ${COLUMNS} from memories
      where agent_id = $1 and status = 'active' and tier = $2
        and ($3::text[] is null or category = any($3::text[]))
        and ($4::integer is null or updated_at > now() - make_interval(days => $4::integer))
      order by ${order}
      limit $5`,
    [p.agentId, p.tier, p.categories ?? null, p.sinceDays ?? null, p.limit],
  );
}

/** The team's recent shared knowledge, most confident first. */
export function listTeamHighlights(tx: Queryable, p: { sinceDays: number; limit: number }) {
  return tx.query<MemoryRow>(
    `select ${COLUMNS} from memories
      where scope = 'team' and status = 'active' and created_at > now() - make_interval(days => $1::integer)
      order by confidence desc, created_at desc
      limit $2`,
    [p.sinceDays, p.limit],
  );
}

/** Everything an agent owns that is not archived, for the export. */
export function listForExport(tx: Queryable, p: { agentId: string }) {
  return tx.query<MemoryRow>(
    `select ${COLUMNS} from memories where agent_id = $1 and status <> 'archived' order by tier, category, created_at`,
    [p.agentId],
  );
}

// ── the surprise filter ─────────────────────────────────────────────────────────────────────────

/** The agent's active memories of one scope nearest to `embedding`, with their cosine similarity. */
export function nearestActiveMemories(tx: Queryable, p: { agentId: string; scope: MemoryScope; embedding: string; limit: number }) {
  return tx.query<MemoryRow & { cosine: number }>(
    `select ${COLUMNS}, 1 - (embedding <=> $3::vector) as cosine from memories
      where agent_id = $1 and scope = $2 and status = 'active' and embedding is not null
        -- vectors of the model that made $3 (this transaction's), of its width
        and embedding_model = mhq.embedding_model()
      order by embedding <=> $3::vector, id
      limit $4`,
    [p.agentId, p.scope, p.embedding, p.limit],
  );
}

/**
 * Reinforces a memory a near-duplicate write repeated: its confidence rises, it counts one more use,
 * and a memory no longer low-confidence stops expiring.
 */
export async function reinforceMemory(tx: Queryable, p: { id: string; confidence: number; lowConfidence: number }) {
  const rows = await tx.query<MemoryRow>(
    `update memories
        set confidence = $2::double precision, accessed_count = accessed_count + 1, last_accessed_at = now(),
            version = version + 1, expires_at = case when $2::double precision >= $3::double precision then null else expires_at end
      where id = $1 returning ${COLUMNS}`,
    [p.id, p.confidence, p.lowConfidence],
  );
  return rows[0] ?? null;
}
