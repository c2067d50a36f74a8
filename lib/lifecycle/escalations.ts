import "server-only";
import { keysetPage } from "@/lib/db/keyset";
import { parseRankedCursor } from "@/lib/http/input-guards";
import type { z } from "zod";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { assertCan } from "@/lib/auth/permissions";
import { asCaller, asSystem, type Queryable } from "@/lib/db";
import { toVectorLiteral, tryEmbed } from "@/lib/embeddings";
import { ApiError, forbidden, notFound } from "@/lib/http/errors";
import { TITLE_MAX_CHARS, type CreateKnowledgeBody } from "@/lib/knowledge/schemas";
import { embedKnowledgeEntry, freeTitle, requirePublishedEntry, searchKnowledge, writeKnowledgeEntry, type KnowledgeSearchHit } from "@/lib/knowledge/service";
import { generalisePersonalData, type KnownIdentities } from "@/lib/review/pii";
import * as q from "./queries";
import { isKnownFix, SIMILAR_KNOWLEDGE_LIMIT, wordOverlap } from "./rules";
import type { Escalation, escalationEntryDraftView } from "./contracts";
import type { createEscalationBody, draftEscalationEntryBody, listEscalationsQuery, resolveEscalationBody, similarEscalationsQuery } from "./schemas";
import { RESOLUTION_MAX_CHARS } from "./schemas";
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
 * Without `knowledge` the entry is composed from the question and the resolution (`composeFix`: no
 * personal data, as `draftEscalationEntry` showed it); `knowledge: false` publishes nothing;
 * `knowledgeEntryId` links the published entry that already answers it instead.
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
  const composed = body.knowledge === undefined && !body.knowledgeEntryId ? composeFix(current, resolution, await identitiesOf(current)) : null;
  const publish = composed ? composed.entry : body.knowledge ? publishedFix(resolution, body.knowledge) : null;
  const embedding = publish ? await embedKnowledgeEntry(publish) : null;

  const others = [...new Set(body.alsoResolve ?? [])].filter((other) => other !== id);

  return asCaller(caller, async (tx) => {
    // the escalations resolved together are locked first, in id order
    if (others.length) await q.lockEscalations(tx, { ids: [id, ...others].sort() });
    const knowledge = body.knowledgeEntryId
      ? await requirePublishedEntry(tx, body.knowledgeEntryId)
      : publish
        ? await writeKnowledgeEntry(tx, composed ? { ...publish, title: await freeTitle(tx, publish.title) } : publish, embedding)
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
        // what kinds of personal data were kept out of the published entry (never the data itself)
        ...(composed ? { personalDataRemoved: composed.personalDataRemoved.map((r) => r.kind) } : {}),
        ...(others.length ? { alsoResolved: others } : {}),
      },
    });
    const alsoResolved = others.length ? await resolveAlongside(tx, { primary: current, others, resolution, knowledge }) : [];
    return {
      escalation: (await q.getEscalation(tx, { id }))!,
      ...(knowledge ? { knowledge } : {}),
      ...(composed ? { personalDataRemoved: composed.personalDataRemoved } : {}),
      ...(others.length ? { alsoResolved } : {}),
    };
  });
}

type EntryDraft = z.input<typeof escalationEntryDraftView>;

/**
 * The entry resolving this escalation without a `knowledge` body would publish now — composed by the
 * same code, its title numbered as it would be — so the resolver sees it before anything leaves the
 * client, and can word it differently (`knowledge`) or publish nothing (`knowledge: false`).
 */
export async function draftEscalationEntry(caller: Caller, id: string, body: z.infer<typeof draftEscalationEntryBody>): Promise<EntryDraft> {
  assertCan(caller, "escalations.resolve");
  const current = await asCaller(caller, (tx) => q.getEscalation(tx, { id }));
  if (!current) throw notFound("Escalation");
  if (current.status !== "open") throw new ApiError("conflict", "This escalation is already resolved: there is nothing left to publish");
  const { entry, personalDataRemoved } = composeFix(current, (body.resolution ?? "").trim(), await identitiesOf(current));
  const title = await asCaller(caller, (tx) => freeTitle(tx, entry.title));
  return { draft: { ...entry, title, tags: entry.tags ?? [] }, personalDataRemoved };
}

/**
 * The names an escalation of a client may mention: its contacts' and its own. Read as the system
 * whoever resolves (a resolver who may not read the client's contacts must not publish their names
 * either); they are only used to leave text out, never answered.
 */
async function identitiesOf(escalation: { clientId: string | null }): Promise<KnownIdentities> {
  if (!escalation.clientId) return {};
  const { clientId } = escalation;
  return asSystem((tx) => q.clientIdentities(tx, { clientId }));
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

type PersonalDataRemoved = EntryDraft["personalDataRemoved"];

/**
 * The knowledge entry HQ composes from an escalation: its question as the title and the problem, the
 * resolution as the fix — with the personal data the PII detector finds in either left out or put in
 * general terms, so that nothing of one client's customers reaches the other clients' agents
 * ("customer Jane Roe at 12 Elm St disputes invoice" → "A customer disputes invoice").
 */
export function composeFix(
  escalation: { question: string; severity: string },
  resolution: string,
  known: KnownIdentities,
): { entry: CreateKnowledgeBody; personalDataRemoved: PersonalDataRemoved } {
  const question = generalisePersonalData(escalation.question.trim(), known);
  const fix = generalisePersonalData(resolution, known);
  const title = question.text.replace(/\s+/g, " ").trim().slice(0, TITLE_MAX_CHARS) || "Escalation";
  return {
    entry: {
      title,
      content: `**Problem:** ${question.text}\n\n${FIX_LABEL} ${fix.text}`,
      category: "escalation",
      tags: ["escalation", escalation.severity],
    },
    personalDataRemoved: [
      ...question.found.map((f) => ({ ...f, from: "question" as const })),
      ...fix.found.map((f) => ({ ...f, from: "resolution" as const })),
    ],
  };
}

/** A `knowledge` body as published: the resolver's own words, carrying the fix that was given. */
export function publishedFix(resolution: string, given: CreateKnowledgeBody): CreateKnowledgeBody {
  if (squash(given.content).includes(squash(resolution))) return given;
  // an empty "Fix:" at the end (the console's template) is filled; otherwise the fix is added as one
  const emptyFix = /(\*\*Fix:\*\*|Fix:)[ \t]*$/.exec(given.content.trimEnd());
  const content = emptyFix ? `${given.content.trimEnd()} ${resolution}` : `${given.content.trimEnd()}\n\n${FIX_LABEL} ${resolution}`;
  return { ...given, content };
}
