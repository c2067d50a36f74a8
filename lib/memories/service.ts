import "server-only";
import type { z } from "zod";
import { resolveAgentId } from "@/lib/agents/service";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { asCaller, type Queryable } from "@/lib/db";
import { toVectorLiteral, tryEmbed } from "@/lib/embeddings";
import { ApiError, forbidden, notFound } from "@/lib/http/errors";
import { countAccessShown } from "@/lib/retrieval/usage/access-counts";
import {
  combinedSimilarity,
  NEAR_DUPLICATE_SIMILARITY,
  NOVELTY_NEIGHBOURS,
  reinforcedConfidence,
  surpriseFrom,
  wordOverlap,
} from "@/lib/lifecycle/rules";
import { requireMemoryHolder, requireOwnAgent } from "./access";
import * as q from "./queries";
import {
  categoryFitsTier,
  expiresAtFor,
  LOW_CONFIDENCE,
  MEMORY_CAP,
  memoryEmbeddingText,
  OUTCOME_CONFIDENCE,
  TITLE_MAX_CHARS,
  type MemoryScope,
  type MemoryTier,
} from "./rules";
import type { createMemoryBody, listMemoriesQuery, outcomeBody, updateMemoryBody } from "./schemas";
import { refuseIdentifiers } from "@/lib/review/refusals";
import { noteSearchWrite } from "@/lib/retrieval/search/term-stats";

const noSharedBrain = () => forbidden("Field agents have no shared brain: team scope is for internal agents");

/** Field agents never touch team scope (the HQ writing in a field agent's name is refused in writeMemory). */
function assertScopeAllowed(caller: Caller, scope: MemoryScope | undefined) {
  if (scope === "team" && caller.type === "agent" && caller.kind === "field") throw noSharedBrain();
}

async function embedMemory(m: { title: string; content: string }): Promise<string | null> {
  const vectors = await tryEmbed([memoryEmbeddingText(m)]);
  return vectors ? toVectorLiteral(vectors[0]!) : null;
}

export type WriteMemoryResult =
  | { created: true; memory: q.MemoryRow; archived: { id: string; title: string }[] }
  | { created: false; memory: q.MemoryRow; deduplicated: true; reason?: "near_duplicate" };

/**
 * The surprise filter for a learning-tier write that carries no surpriseScore: novelty against the
 * agent's active memories of the same scope (rules in lib/lifecycle/rules.ts). A near-duplicate
 * answers the memory it repeats; otherwise the computed surprise score is stored with the write.
 */
async function surpriseFilter(
  tx: Queryable,
  p: { agentId: string; scope: MemoryScope; title: string; content: string; embedding: string },
): Promise<{ duplicate: q.MemoryRow | null; surpriseScore: number }> {
  const text = memoryEmbeddingText(p);
  const neighbours = await q.nearestActiveMemories(tx, { agentId: p.agentId, scope: p.scope, embedding: p.embedding, limit: NOVELTY_NEIGHBOURS });
  let best: { memory: q.MemoryRow; similarity: number } | null = null;
  for (const { cosine, ...memory } of neighbours) {
    const similarity = combinedSimilarity(Number(cosine), wordOverlap(text, memoryEmbeddingText(memory)));
    if (!best || similarity > best.similarity) best = { memory, similarity };
  }
  const similarity = best?.similarity ?? 0;
  return { duplicate: best && similarity >= NEAR_DUPLICATE_SIMILARITY ? best.memory : null, surpriseScore: surpriseFrom(similarity) };
}

/**
 * memory_write: validated by the schema (title ≤ 200, confidence ≥ 0.4, category of the
 * tier), deduplicated by sourceTraceId, embedded in the same transaction (or queued when the
 * provider is down), low-confidence learning given a 7-day expiry, and the 200 cap enforced.
 */
export async function writeMemory(
  caller: Caller,
  agentIdParam: string | undefined,
  body: z.infer<typeof createMemoryBody>,
): Promise<WriteMemoryResult> {
  const agentId = resolveAgentId(caller, agentIdParam);
  const scope = body.scope ?? "agent";
  assertScopeAllowed(caller, scope);
  const content = body.content ?? "";
  refuseIdentifiers({ title: body.title, content, tags: body.tags, decisionContext: body.decisionContext ? JSON.stringify(body.decisionContext) : null });

  if (body.sourceTraceId) {
    // answer a repeat without paying for an embedding
    const seen = await asCaller(caller, async (tx) => {
      await requireOwnAgent(tx, caller, agentId);
      return q.findByTrace(tx, { agentId, sourceTraceId: body.sourceTraceId! });
    });
    if (seen) return { created: false, memory: seen, deduplicated: true };
  }

  const embedding = await embedMemory({ title: body.title, content });
  // the search statistics take the write's deltas in a batch (lib/retrieval/search/term-stats.ts)
  noteSearchWrite();
  return asCaller(caller, async (tx) => {
    // the check and the agent's write lock are sent together (a refused check rolls the lock back)
    const [agent] = await Promise.all([requireMemoryHolder(tx, caller, agentId), q.lockAgentMemories(tx, { agentId })]);
    if (scope === "team" && agent.kind !== "internal") throw noSharedBrain();
    // a surprise score belongs to learned lessons: core and working memories have none
    let surpriseScore = body.tier === "learning" ? (body.surpriseScore ?? null) : null;
    // core memories are always stored; working items by their own rules; learning passes the filter
    // (a correction only gets its surprise score: corrections are always stored)
    if (body.tier === "learning" && surpriseScore === null && embedding) {
      // a concurrent write of the same trace committed first: that is a trace repeat, not a near-duplicate
      const seen = body.sourceTraceId ? await q.findByTrace(tx, { agentId, sourceTraceId: body.sourceTraceId }) : null;
      if (seen) return { created: false, memory: seen, deduplicated: true };
      const verdict = await surpriseFilter(tx, { agentId, scope, title: body.title, content, embedding });
      // a correction is always stored, however close to an earlier one: it was said again
      if (verdict.duplicate && body.category !== "correction") {
        const confidence = reinforcedConfidence(verdict.duplicate.confidence, body.confidence);
        const reinforced = await q.reinforceMemory(tx, { id: verdict.duplicate.id, confidence, lowConfidence: LOW_CONFIDENCE });
        await recordAudit(tx, {
          action: "memory.reinforce",
          targetType: "memory",
          targetId: verdict.duplicate.id,
          clientId: agent.clientId,
          details: { agentId, reason: "near_duplicate", confidence, surpriseScore: verdict.surpriseScore },
        });
        return { created: false, memory: reinforced ?? verdict.duplicate, deduplicated: true, reason: "near_duplicate" };
      }
      surpriseScore = verdict.surpriseScore;
    }
    const memory = await q.insertMemory(tx, {
      agentId,
      scope,
      tier: body.tier,
      category: body.category,
      title: body.title,
      content,
      source: body.source ?? "",
      confidence: body.confidence,
      surpriseScore,
      tags: body.tags ?? [],
      relatedIds: body.relatedIds ?? [],
      decisionContext: body.decisionContext ?? null,
      outcome: null,
      sourceTraceId: body.sourceTraceId ?? null,
      expiresAt: expiresAtFor(body.tier, body.confidence, new Date()),
      occurredAt: body.occurredAt ?? null,
      createdByName: caller.name,
      embedding,
    });
    if (!memory) {
      // a concurrent write with the same trace id won the race
      const seen = await q.findByTrace(tx, { agentId, sourceTraceId: body.sourceTraceId! });
      return { created: false, memory: seen!, deduplicated: true };
    }
    // every memory write is audited, the agent's own included: HQ answers for what its agents
    // remember (the audit and the cap's statement are sent together, in this order)
    const [, capped] = await Promise.all([
      recordAudit(tx, {
        action: "memory.create",
        targetType: "memory",
        targetId: memory.id,
        clientId: agent.clientId,
        details: { agentId, tier: memory.tier, category: memory.category, scope },
      }),
      enforceCap(tx, memory),
    ]);
    return { created: true, ...capped };
  });
}

/**
 * Archives past the cap when `memory` is an active agent-scope memory and records what it archived.
 * The rule spares nothing but core, so `memory` itself may be the one archived: it is returned as stored.
 */
async function enforceCap(tx: Queryable, memory: q.MemoryRow) {
  if (memory.scope !== "agent" || memory.status !== "active") return { memory, archived: [] };
  const archived = await q.archiveOverCap(tx, { agentId: memory.agentId, cap: MEMORY_CAP });
  if (!archived.length) return { memory, archived };
  await recordAudit(tx, {
    action: "memory.archive_over_cap",
    targetType: "agent",
    targetId: memory.agentId,
    details: { cap: MEMORY_CAP, archived: archived.map((a) => a.id), trigger: memory.id },
  });
  const self = archived.some((a) => a.id === memory.id);
  return { memory: self ? ((await q.getMemory(tx, { id: memory.id })) ?? memory) : memory, archived };
}

export async function listMemories(caller: Caller, agentIdParam: string | undefined, query: z.infer<typeof listMemoriesQuery>) {
  const agentId = resolveAgentId(caller, agentIdParam);
  assertScopeAllowed(caller, query.scope);
  return asCaller(caller, async (tx) => {
    await requireOwnAgent(tx, caller, agentId);
    return q.listMemories(tx, { ...query, agentId, status: query.status === "all" ? undefined : query.status });
  });
}

/** Loads a memory the caller may see (RLS decides), or 404. */
async function requireMemory(tx: Queryable, id: string) {
  const memory = await q.getMemory(tx, { id });
  if (!memory) throw notFound("Memory");
  return memory;
}

/** Reads one memory; an agent's read counts as an access (the accessed_count). */
export async function getMemory(caller: Caller, id: string) {
  return asCaller(caller, async (tx) => {
    const memory = await requireMemory(tx, id);
    if (caller.type !== "agent") return { memory };
    // the counters shown include the accesses not yet folded into them (this one among them)
    const pending = (await countAccessShown(tx, "memory", [id])).get(id);
    return { memory: pending ? { ...memory, accessedCount: memory.accessedCount + pending.count, lastAccessedAt: pending.at } : memory };
  });
}

export async function updateMemory(caller: Caller, id: string, body: z.infer<typeof updateMemoryBody>) {
  const { expectedVersion, ...changes } = body;
  const current = await asCaller(caller, (tx) => requireMemory(tx, id));
  const tier: MemoryTier = changes.tier ?? current.tier;
  const category = changes.category ?? current.category;
  if (!categoryFitsTier(tier, category)) {
    throw new ApiError("validation_failed", `category "${category}" does not belong to tier "${tier}"`);
  }
  if (changes.decisionContext && category !== "decision") {
    throw new ApiError("validation_failed", "decisionContext belongs to decisions only");
  }
  if (current.scope === "team" && category === "identity") {
    throw new ApiError("validation_failed", "An identity memory stays the agent's own: a team memory cannot become one");
  }
  refuseIdentifiers({ title: changes.title, content: changes.content, tags: changes.tags, decisionContext: changes.decisionContext ? JSON.stringify(changes.decisionContext) : null });
  const textChanged = changes.title !== undefined || changes.content !== undefined;
  noteSearchWrite();
  const embedding = textChanged
    ? await embedMemory({ title: changes.title ?? current.title, content: changes.content ?? current.content })
    : undefined;
  const confidence = changes.confidence ?? current.confidence;
  // a memory that becomes low-confidence learning starts its 7 days now; one that stops being so never expires
  const expiry = expiresAtFor(tier, confidence, new Date());
  const expiresAt = expiry ? (current.expiresAt ?? expiry) : null;

  return asCaller(caller, async (tx) => {
    await q.lockAgentMemories(tx, { agentId: current.agentId });
    const memory = await q.updateMemory(tx, {
      id,
      expectedVersion: expectedVersion ?? current.version,
      changes: {
        ...changes,
        expiresAt,
        // out of the learning tier, a memory keeps no surprise score (a given one included)
        ...(tier !== "learning" ? { surpriseScore: null } : {}),
        ...(embedding !== undefined ? { embedding } : {}),
      },
    });
    if (!memory) {
      const now = await q.getMemory(tx, { id });
      if (!now) throw notFound("Memory");
      throw new ApiError("version_conflict", `The memory changed since version ${expectedVersion ?? current.version}`, {
        expectedVersion: expectedVersion ?? current.version,
        current: now,
      });
    }
    const result = changes.status === "active" ? await enforceCap(tx, memory) : { memory, archived: [] };
    await recordAudit(tx, {
      action: "memory.update",
      targetType: "memory",
      targetId: id,
      details: { agentId: memory.agentId, fields: Object.keys(changes), version: memory.version },
    });
    return result;
  });
}

/**
 * Scores a decision: stores the outcome on the decision and writes a learning/outcome
 * memory linked to it both ways (related ids), so outcome checks can find one from the other.
 */
export async function recordOutcome(caller: Caller, id: string, body: z.infer<typeof outcomeBody>) {
  const decision = await asCaller(caller, (tx) => requireMemory(tx, id));
  if (decision.category !== "decision") {
    throw new ApiError("validation_failed", `Outcomes are recorded on decisions; this memory is a ${decision.category}`);
  }
  if (decision.outcome) throw new ApiError("conflict", "This decision already has an outcome");
  refuseIdentifiers({ result: body.result, notes: body.notes });

  const scoredAt = new Date().toISOString();
  const title = `Outcome: ${decision.title}`.slice(0, TITLE_MAX_CHARS);
  const content = body.notes ? `${body.result}\n\n${body.notes}` : body.result;
  const embedding = await embedMemory({ title, content });
  // a team decision's outcome is written in the scorer's name (RLS: team memories carry their author)
  const ownerId = caller.type === "agent" ? caller.agentId : decision.agentId;

  return asCaller(caller, async (tx) => {
    await q.lockAgentMemories(tx, { agentId: ownerId });
    const outcome = await q.insertMemory(tx, {
      agentId: ownerId,
      scope: decision.scope,
      tier: "learning",
      category: "outcome",
      title,
      content,
      source: decision.source,
      confidence: OUTCOME_CONFIDENCE,
      surpriseScore: null,
      tags: decision.tags,
      relatedIds: [decision.id],
      decisionContext: null,
      outcome: { result: body.result, success: body.success, notes: body.notes, scoredAt, decisionId: decision.id },
      sourceTraceId: null,
      expiresAt: null,
      occurredAt: body.occurredAt ?? null,
      createdByName: caller.name,
      embedding,
    });
    const scored = await q.updateMemory(tx, {
      id: decision.id,
      expectedVersion: decision.version,
      changes: {
        outcome: { result: body.result, success: body.success, notes: body.notes, scoredAt, outcomeId: outcome!.id },
        relatedIds: [...new Set([...decision.relatedIds, outcome!.id])],
      },
    });
    // someone scored or edited the decision meanwhile: the whole write rolls back
    if (!scored) throw new ApiError("version_conflict", "The decision changed while its outcome was being recorded; retry");
    await recordAudit(tx, {
      action: "memory.outcome",
      targetType: "memory",
      targetId: decision.id,
      details: { agentId: decision.agentId, outcomeId: outcome!.id, success: body.success },
    });
    const capped = await enforceCap(tx, outcome!);
    return { decision: scored, outcome: capped.memory, archived: capped.archived };
  });
}
