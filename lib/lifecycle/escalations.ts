import "server-only";
import { keysetPage } from "@/lib/db/keyset";
import { parseRankedCursor } from "@/lib/http/input-guards";
import type { z } from "zod";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { assertCan } from "@/lib/auth/permissions";
import { asCaller, type Queryable } from "@/lib/db";
import { toVectorLiteral, tryEmbed } from "@/lib/embeddings";
import { ApiError, forbidden, notFound } from "@/lib/http/errors";
import { TITLE_MAX_CHARS, type CreateKnowledgeBody } from "@/lib/knowledge/schemas";
import { embedKnowledgeEntry, freeTitle, requirePublishedEntry, searchKnowledge, writeKnowledgeEntry, type KnowledgeSearchHit } from "@/lib/knowledge/service";
import * as q from "./queries";
import { isKnownFix, SIMILAR_KNOWLEDGE_LIMIT, wordOverlap } from "./rules";
import type { Escalation } from "./contracts";
import type { createEscalationBody, listEscalationsQuery, resolveEscalationBody, similarEscalationsQuery } from "./schemas";
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
  const { limit, cursor, status, ...filter } = query;
  return asCaller(caller, async (tx) => {
    const [rows, counts] = await Promise.all([
      q.listEscalations(tx, { ...filter, status, limit, after: cursor ? (parseRankedCursor(cursor) ?? undefined) : undefined }),
      q.escalationCounts(tx, filter),
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

  const others = [...new Set(body.alsoResolve ?? [])].filter((other) => other !== id);

  return asCaller(caller, async (tx) => {
    // the escalations resolved together are locked first, in id order
    if (others.length) await q.lockEscalations(tx, { ids: [id, ...others].sort() });
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
      details: {
        knowledgeEntryId: knowledge?.id ?? null,
        ...(body.knowledgeEntryId ? { linkedExisting: true } : {}),
        ...(others.length ? { alsoResolved: others } : {}),
      },
    });
    const alsoResolved = others.length ? await resolveAlongside(tx, { primary: current, others, resolution, knowledge }) : [];
    return {
      escalation: (await q.getEscalation(tx, { id }))!,
      ...(knowledge ? { knowledge } : {}),
      ...(others.length ? { alsoResolved } : {}),
    };
  });
}

/**
 * The other escalations of one resolve (`alsoResolve`), in the same transaction — any that cannot be
 * resolved refuses the whole resolve. Each is linked to the same entry and audited on its own. The
 * primary's client's escalations get the resolution as typed; another client's get the fix as the
 * entry publishes it (HQ knowledge every client's agents read), never words written for the first
 * client, so resolving another client's escalation needs an entry.
 */
async function resolveAlongside(
  tx: Queryable,
  p: { primary: Escalation; others: string[]; resolution: string; knowledge: { id: string; content: string } | null },
): Promise<Escalation[]> {
  const found = new Map((await q.escalationsById(tx, { ids: p.others })).map((e) => [e.id, e]));
  const missing = p.others.filter((other) => !found.has(other));
  if (missing.length) {
    throw new ApiError("validation_failed", `alsoResolve: no escalation has the id ${missing[0]}`, [{ path: "alsoResolve", message: `no escalation has the id ${missing[0]}` }]);
  }
  const resolvedAlready = p.others.filter((other) => found.get(other)!.status !== "open");
  if (resolvedAlready.length) throw new ApiError("conflict", `Escalation ${resolvedAlready[0]} named in alsoResolve is already resolved`, { ids: resolvedAlready });
  const out: Escalation[] = [];
  for (const other of [...p.others].sort()) {
    const escalation = found.get(other)!;
    const sameClient = escalation.clientId === p.primary.clientId;
    if (!sameClient && !p.knowledge) {
      throw new ApiError("validation_failed", "alsoResolve: another client's escalation is resolved with the published fix; publish or link an entry", [
        { path: "alsoResolve", message: `escalation ${other} is another client's: publish or link an entry to resolve it with` },
      ]);
    }
    const resolution = sameClient ? p.resolution : publishedFixText(p.knowledge!.content);
    if (!(await q.resolveEscalation(tx, { id: other, resolution, knowledgeEntryId: p.knowledge?.id ?? null }))) {
      throw new ApiError("conflict", `Escalation ${other} named in alsoResolve was resolved meanwhile`, { ids: [other] });
    }
    await recordAudit(tx, {
      action: "escalation.resolve",
      targetType: "escalation",
      targetId: other,
      clientId: escalation.clientId,
      details: { knowledgeEntryId: p.knowledge?.id ?? null, resolvedWith: p.primary.id, ...(sameClient ? {} : { publishedFix: true }) },
    });
    out.push((await q.getEscalation(tx, { id: other }))!);
  }
  return out;
}

/** The fix an entry publishes: what follows its "Fix:" label, else the whole entry. */
export function publishedFixText(content: string): string {
  const at = content.search(/(\*\*Fix:\*\*|^Fix:)/m);
  // from the first label on; a fix appended under a second label reads as its own paragraph
  const fix = at < 0 ? content : content.slice(at).replace(/^(\*\*Fix:\*\*|Fix:)\s*/, "").replace(/\n*(\*\*Fix:\*\*|^Fix:)\s*/gm, "\n\n");
  return fix.trim().slice(0, RESOLUTION_MAX_CHARS) || content.trim().slice(0, RESOLUTION_MAX_CHARS);
}

const RESOLUTION_MAX_CHARS = 20_000;

/** GET /escalations/{id}: one escalation the caller may see. */
export async function getEscalation(caller: Caller, id: string) {
  const escalation = await asCaller(caller, (tx) => q.getEscalation(tx, { id }));
  if (!escalation) throw notFound("Escalation");
  return { escalation };
}

/** How many open escalations one is compared with (the newest): more than a team leaves open at once. */
const SIMILAR_CANDIDATES = 500;

/**
 * GET /escalations/{id}/similar: the open escalations likely the same issue — by the rule a captured
 * fix is offered by (closeness in meaning and shared words, `isKnownFix`), most alike first, so one
 * fix can resolve them together.
 */
export async function similarEscalations(caller: Caller, id: string, query: z.infer<typeof similarEscalationsQuery>) {
  const { current, candidates } = await asCaller(caller, async (tx) => ({
    current: await q.getEscalation(tx, { id }),
    candidates: await q.openEscalationsExcept(tx, { exceptId: id, limit: SIMILAR_CANDIDATES }),
  }));
  if (!current) throw notFound("Escalation");
  const scores = await similarities(current.question, candidates.map((c) => c.question));
  const similar = candidates
    .map((escalation, i) => ({ escalation, similarity: Math.round(scores[i]! * 1000) / 1000 }))
    .filter((s) => isKnownFix(s.similarity, wordOverlap(current.question, s.escalation.question)))
    .sort((a, b) => b.similarity - a.similarity || a.escalation.id.localeCompare(b.escalation.id))
    .slice(0, query.limit);
  return { similar };
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
