import "server-only";
import { keysetPage } from "@/lib/db/keyset";
import { parseRankedCursor } from "@/lib/http/input-guards";
import type { z } from "zod";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { assertCan } from "@/lib/auth/permissions";
import { asCaller } from "@/lib/db";
import { toVectorLiteral, tryEmbed } from "@/lib/embeddings";
import { ApiError, forbidden, notFound } from "@/lib/http/errors";
import { TITLE_MAX_CHARS, type CreateKnowledgeBody } from "@/lib/knowledge/schemas";
import { embedKnowledgeEntry, freeTitle, requirePublishedEntry, searchKnowledge, writeKnowledgeEntry, type KnowledgeSearchHit } from "@/lib/knowledge/service";
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
/** Escalations a page at a time in the list's order (keyset: `cursor` is the previous page's `nextCursor`), with the counts of all. */
export async function listEscalations(caller: Caller, query: z.infer<typeof listEscalationsQuery>) {
  const { limit, cursor, status } = query;
  return asCaller(caller, async (tx) => {
    const [rows, counts] = await Promise.all([
      q.listEscalations(tx, { status, limit, after: cursor ? (parseRankedCursor(cursor) ?? undefined) : undefined }),
      q.escalationCounts(tx),
    ]);
    const page = keysetPage(rows, limit);
    return { escalations: page.rows, nextCursor: page.nextCursor, counts };
  });
}

/**
 * Resolves an escalation (HQ admins and curators, internal agents with kbAccess "write") and publishes
 * the fix that was given to the knowledge base, linked to it — one commit for both, so a fix never
 * exists without its escalation nor a resolution without its fix. A later similar escalation is
 * answered with that entry (`knownFix`), so the entry always carries the resolution: a `knowledge`
 * body whose content does not contain it gets it filled into its empty "Fix:" or appended as one.
 * Without `knowledge` the entry is written from the question and the resolution; `knowledge: false`
 * publishes nothing; `knowledgeEntryId` links the published entry that already answers it instead.
 */
export async function resolveEscalation(caller: Caller, id: string, body: z.infer<typeof resolveEscalationBody>) {
  assertCan(caller, "escalations.resolve");
  const current = await asCaller(caller, (tx) => q.getEscalation(tx, { id }));
  if (!current) throw notFound("Escalation");
  if (current.status !== "open") throw new ApiError("conflict", "This escalation is already resolved");
  if (body.knowledgeEntryId && body.knowledge !== undefined) {
    throw new ApiError("validation_failed", "Give either knowledge or knowledgeEntryId, not both", [
      { path: "knowledgeEntryId", message: "give either knowledge or knowledgeEntryId, not both" },
    ]);
  }
  const resolution = body.resolution.trim();
  const publish = body.knowledge === false || body.knowledgeEntryId ? null : publishedFix(current, resolution, body.knowledge);
  const embedding = publish ? await embedKnowledgeEntry(publish) : null;

  return asCaller(caller, async (tx) => {
    const knowledge = body.knowledgeEntryId
      ? await requirePublishedEntry(tx, body.knowledgeEntryId)
      : publish
        ? await writeKnowledgeEntry(tx, body.knowledge ? publish : { ...publish, title: await freeTitle(tx, publish.title) }, embedding)
        : null;
    const resolved = await q.resolveEscalation(tx, { id, resolution, knowledgeEntryId: knowledge?.id ?? null });
    if (!resolved) {
      if (!(await q.getEscalation(tx, { id }))) throw notFound("Escalation");
      throw new ApiError("conflict", "This escalation was resolved meanwhile");
    }
    await recordAudit(tx, {
      action: "escalation.resolve",
      targetType: "escalation",
      targetId: id,
      clientId: current.clientId,
      details: { knowledgeEntryId: knowledge?.id ?? null, ...(body.knowledgeEntryId ? { linkedExisting: true } : {}) },
    });
    return { escalation: (await q.getEscalation(tx, { id }))!, ...(knowledge ? { knowledge } : {}) };
  });
}

const FIX_LABEL = "**Fix:**";
const squash = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

/** The knowledge entry that publishes a resolution: the one given, carrying the fix, or one composed from the escalation. */
export function publishedFix(
  escalation: { question: string; severity: string },
  resolution: string,
  given: CreateKnowledgeBody | undefined,
): CreateKnowledgeBody {
  if (!given) {
    return {
      title: escalation.question.replace(/\s+/g, " ").trim().slice(0, TITLE_MAX_CHARS),
      content: `**Problem:** ${escalation.question.trim()}\n\n${FIX_LABEL} ${resolution}`,
      category: "escalation",
      tags: ["escalation", escalation.severity],
    };
  }
  if (squash(given.content).includes(squash(resolution))) return given;
  // an empty "Fix:" at the end (the console's template) is filled; otherwise the fix is added as one
  const emptyFix = /(\*\*Fix:\*\*|Fix:)[ \t]*$/.exec(given.content.trimEnd());
  const content = emptyFix ? `${given.content.trimEnd()} ${resolution}` : `${given.content.trimEnd()}\n\n${FIX_LABEL} ${resolution}`;
  return { ...given, content };
}
