import "server-only";
import type { z } from "zod";
import { resolveAgentId } from "@/lib/agents/service";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { getConfig } from "@/lib/config";
import { asCaller } from "@/lib/db";
import { toVectorLiteral, tryEmbed } from "@/lib/embeddings";
import { ApiError, notFound } from "@/lib/http/errors";
import { requireMemoryHolder, requireOwnAgent } from "@/lib/memories/access";
import * as q from "./queries";
import {
  charCount,
  DOCUMENT_MAX_CHARS,
  documentType,
  WORKING_MAX_CHARS,
  type DocumentType,
  type getDocumentQuery,
  type listDailyQuery,
  type putDocumentBody,
} from "./schemas";
import { todayIn } from "./today";

/** "Today" for daily notes, in the team's time zone (DAILY_NOTE_TIMEZONE). */
export const today = () => todayIn(getConfig().DAILY_NOTE_TIMEZONE);

/** A document as the API shows it; one never written reads as empty with version 0. */
export function presentDocument(type: DocumentType, date: string | null, row: q.DocumentRow | null) {
  return {
    type,
    ...(type === "daily" ? { date } : {}),
    content: row?.content ?? "",
    version: row?.version ?? 0,
    updatedAt: row?.updatedAt ?? null,
    updatedByName: row?.updatedByName ?? null,
  };
}

function parseType(value: string | undefined): DocumentType {
  const parsed = documentType.safeParse(value);
  if (!parsed.success) throw notFound("Document type");
  return parsed.data;
}

function slotDate(type: DocumentType, date: string | undefined): string | null {
  if (type !== "daily") {
    if (date) throw new ApiError("validation_failed", "date applies to daily notes only");
    return null;
  }
  return date ?? today();
}

export async function getDocument(
  caller: Caller,
  agentIdParam: string | undefined,
  typeParam: string | undefined,
  query: z.infer<typeof getDocumentQuery>,
) {
  const agentId = resolveAgentId(caller, agentIdParam);
  const type = parseType(typeParam);
  const date = slotDate(type, query.date);
  return asCaller(caller, async (tx) => {
    await requireOwnAgent(tx, caller, agentId);
    return presentDocument(type, date, await q.getDocument(tx, { agentId, type, date }));
  });
}

/**
 * Writes a document. With `expectedVersion` the write succeeds only if nobody saved since that
 * version (409 `version_conflict` otherwise, with the current document in `details.current` so a
 * client can show both versions); without it the last write wins.
 */
export async function putDocument(
  caller: Caller,
  agentIdParam: string | undefined,
  typeParam: string | undefined,
  body: z.infer<typeof putDocumentBody>,
) {
  const agentId = resolveAgentId(caller, agentIdParam);
  const type = parseType(typeParam);
  const date = slotDate(type, body.date);
  const length = charCount(body.content);
  const limit = type === "working" ? WORKING_MAX_CHARS : DOCUMENT_MAX_CHARS;
  if (length > limit) {
    throw new ApiError("validation_failed", `The ${type} document is limited to ${limit} characters (got ${length})`, {
      limit,
      length,
    });
  }
  // embedded before the transaction opens, so a slow provider never holds locks; null = queued
  const vectors = await tryEmbed([body.content]);
  return asCaller(caller, async (tx) => {
    const write = {
      agentId,
      type,
      date,
      content: body.content,
      updatedByName: caller.name,
      embedding: vectors ? toVectorLiteral(vectors[0]!) : null,
    };
    const expected = body.expectedVersion;
    // the holder check and the write are sent together: the check is answered first, and when it
    // refuses, its error is the answer and the transaction (the write with it) is rolled back
    const [agent, row] = await Promise.all([
      requireMemoryHolder(tx, caller, agentId),
      expected === undefined
        ? q.upsertDocument(tx, write)
        : expected === 0
          ? q.insertFirstVersion(tx, write)
          : q.updateIfVersion(tx, { ...write, expectedVersion: expected }),
    ]);
    if (!row) {
      const current = await q.getDocument(tx, { agentId, type, date });
      throw new ApiError(
        "version_conflict",
        `The ${type} document changed since version ${expected} (it is now at version ${current?.version ?? 0})`,
        { expectedVersion: expected, current: presentDocument(type, date, current) },
      );
    }
    // every save is audited, the agent's own included, with the version it produced (not the text)
    await recordAudit(tx, {
      action: "document.write",
      targetType: "agent",
      targetId: agentId,
      clientId: agent.clientId,
      details: { type, date, version: row.version },
    });
    return { type, ...(type === "daily" ? { date } : {}), version: row.version, updatedAt: row.updatedAt };
  });
}

export async function listDailyNotes(caller: Caller, agentIdParam: string | undefined, query: z.infer<typeof listDailyQuery>) {
  const agentId = resolveAgentId(caller, agentIdParam);
  return asCaller(caller, async (tx) => {
    await requireOwnAgent(tx, caller, agentId);
    return { today: today(), notes: await q.listDailyNotes(tx, { agentId, limit: query.limit }) };
  });
}
