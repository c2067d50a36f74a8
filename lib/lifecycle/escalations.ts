import "server-only";
import type { z } from "zod";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { assertCan } from "@/lib/auth/permissions";
import { asCaller } from "@/lib/db";
import { toVectorLiteral, tryEmbed } from "@/lib/embeddings";
import { ApiError, forbidden, notFound } from "@/lib/http/errors";
import { embedKnowledgeEntry, searchKnowledge, writeKnowledgeEntry, type KnowledgeSearchHit } from "@/lib/knowledge/service";
import * as q from "./queries";
import { isKnownFix, SIMILAR_KNOWLEDGE_LIMIT, wordOverlap } from "./rules";
import type { createEscalationBody, listEscalationsQuery, resolveEscalationBody } from "./schemas";
import { similarities } from "./similarity";

/**
 * Raises an escalation ("the same issue is never escalated twice"): the knowledge base is searched
 * for the question, and when one of the matches was captured from an earlier resolved escalation
 * (any client's: the fix is HQ knowledge, the escalation behind it stays private) and is close
 * enough to this question, it is answered first as `knownFix`.
 */
export async function raiseEscalation(caller: Caller, body: z.infer<typeof createEscalationBody>) {
  if (caller.type !== "agent") throw forbidden("Escalations are raised by agents");
  const context = body.context ?? "";
  const text = context ? `${body.question}\n\n${context}` : body.question;
  const vectors = await tryEmbed([text]);
  const embedding = vectors ? toVectorLiteral(vectors[0]!) : null;

  const { hits, fixes } = await asCaller(caller, async (tx) => {
    const found = await searchKnowledge(tx, { text, limit: SIMILAR_KNOWLEDGE_LIMIT, embedding });
    return { hits: found, fixes: await q.capturedFixIds(tx, { ids: found.map((h) => h.id) }) };
  });
  const candidates = hits.filter((h) => fixes.has(h.id));
  const texts = candidates.flatMap((h) => [h.title, `${h.title}\n\n${h.content}`]);
  const scores = await similarities(body.question, texts);
  const matches = (i: number) => isKnownFix(scores[i]!, wordOverlap(body.question, texts[i]!));
  const knownFix = candidates.find((_, i) => matches(2 * i) || matches(2 * i + 1)) ?? null;

  const escalation = await asCaller(caller, async (tx) => {
    const row = await q.insertEscalation(tx, {
      agentId: caller.agentId,
      clientId: caller.clientId,
      question: body.question,
      severity: body.severity,
      context,
      knownFixId: knownFix?.id ?? null,
    });
    await recordAudit(tx, {
      action: "escalation.create",
      targetType: "escalation",
      targetId: row.id,
      clientId: row.clientId,
      details: { severity: row.severity, knownFixId: row.knownFixId, similar: hits.map((h) => h.id) },
    });
    return row;
  });
  const similarKnowledge: KnowledgeSearchHit[] = knownFix ? [knownFix, ...hits.filter((h) => h.id !== knownFix.id)] : hits;
  return { escalation, similarKnowledge, ...(knownFix ? { knownFix } : {}) };
}

/** Open or resolved escalations the caller may see (a field agent: its own client's only, by RLS). */
export async function listEscalations(caller: Caller, query: z.infer<typeof listEscalationsQuery>) {
  return asCaller(caller, async (tx) => ({
    escalations: await q.listEscalations(tx, query),
    counts: await q.escalationCounts(tx),
  }));
}

/**
 * Resolves an escalation (HQ admins and curators, internal agents with kbAccess "write") and, with
 * `knowledge`, writes the reusable fix to the knowledge base linked to it — one commit for both, so
 * a fix never exists without its escalation nor a resolution without its fix.
 */
export async function resolveEscalation(caller: Caller, id: string, body: z.infer<typeof resolveEscalationBody>) {
  assertCan(caller, "escalations.resolve");
  const current = await asCaller(caller, (tx) => q.getEscalation(tx, { id }));
  if (!current) throw notFound("Escalation");
  if (current.status !== "open") throw new ApiError("conflict", "This escalation is already resolved");
  const embedding = body.knowledge ? await embedKnowledgeEntry(body.knowledge) : null;

  return asCaller(caller, async (tx) => {
    const knowledge = body.knowledge ? await writeKnowledgeEntry(tx, body.knowledge, embedding) : null;
    const resolved = await q.resolveEscalation(tx, { id, resolution: body.resolution, knowledgeEntryId: knowledge?.id ?? null });
    if (!resolved) {
      if (!(await q.getEscalation(tx, { id }))) throw notFound("Escalation");
      throw new ApiError("conflict", "This escalation was resolved meanwhile");
    }
    await recordAudit(tx, {
      action: "escalation.resolve",
      targetType: "escalation",
      targetId: id,
      clientId: current.clientId,
      details: { knowledgeEntryId: knowledge?.id ?? null },
    });
    return { escalation: (await q.getEscalation(tx, { id }))!, ...(knowledge ? { knowledge } : {}) };
  });
}
