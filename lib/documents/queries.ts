import "server-only";
import type { z } from "zod";
import type { Queryable, StoredRow } from "@/lib/db";
import type { dailyNoteSummaryView, documentView } from "./contracts";
import type { DocumentType } from "./schemas";

/** A written document: its day (null for soul and working), its author and time of change always set. */
export type DocumentRow = StoredRow<z.output<typeof documentView>, "updatedAt" | "updatedByName">;

const COLUMNS = `type, doc_date::text as date, content, version, updated_by_name as "updatedByName", updated_at as "updatedAt"`;

export interface Slot {
  agentId: string;
  type: DocumentType;
  /** the day of a daily note; null for soul and working */
  date: string | null;
}

export async function getDocument(tx: Queryable, p: Slot) {
  const rows = await tx.query<DocumentRow>(
    `select ${COLUMNS} from agent_documents
      where agent_id = $1 and type = $2 and doc_date is not distinct from $3::date`,
    [p.agentId, p.type, p.date],
  );
  return rows[0] ?? null;
}

/** The soul, the scratchpad and one day's note in one round trip (boot). */
export function getBootDocuments(tx: Queryable, p: { agentId: string; date: string }) {
  return tx.query<DocumentRow>(
    `select ${COLUMNS} from agent_documents
      where agent_id = $1 and (type in ('soul', 'working') or (type = 'daily' and doc_date = $2::date))`,
    [p.agentId, p.date],
  );
}

interface WriteParams extends Slot {
  content: string;
  updatedByName: string;
  embedding: string | null;
}

const WRITE_PARAMS = (p: WriteParams) => [p.agentId, p.type, p.date, p.content, p.updatedByName, p.embedding];

/** Last write wins: creates version 1 or bumps the version. */
export async function upsertDocument(tx: Queryable, p: WriteParams) {
  const rows = await tx.query<DocumentRow>(
    `insert into agent_documents (agent_id, type, doc_date, content, updated_by_name, embedding)
     values ($1, $2, $3::date, $4, $5, $6::vector)
     on conflict (agent_id, type, doc_date) do update
       set content = excluded.content, updated_by_name = excluded.updated_by_name,
           embedding = excluded.embedding, version = agent_documents.version + 1
     returning ${COLUMNS}`,
    WRITE_PARAMS(p),
  );
  return rows[0]!;
}

/** The first write of a document: null when someone else wrote it first. */
export async function insertFirstVersion(tx: Queryable, p: WriteParams) {
  const rows = await tx.query<DocumentRow>(
    `insert into agent_documents (agent_id, type, doc_date, content, updated_by_name, embedding)
     values ($1, $2, $3::date, $4, $5, $6::vector)
     on conflict (agent_id, type, doc_date) do nothing
     returning ${COLUMNS}`,
    WRITE_PARAMS(p),
  );
  return rows[0] ?? null;
}

/**
 * Writes only if the stored version is still `expectedVersion`: null otherwise. A concurrent writer
 * holding the same version waits for the row lock, re-checks the condition against the committed
 * row and updates nothing, so exactly one of them wins.
 */
export async function updateIfVersion(tx: Queryable, p: WriteParams & { expectedVersion: number }) {
  const rows = await tx.query<DocumentRow>(
    `update agent_documents
        set content = $4, updated_by_name = $5, embedding = $6::vector, version = version + 1
      where agent_id = $1 and type = $2 and doc_date is not distinct from $3::date and version = $7
      returning ${COLUMNS}`,
    [...WRITE_PARAMS(p), p.expectedVersion],
  );
  return rows[0] ?? null;
}

export type DailyNoteSummary = z.output<typeof dailyNoteSummaryView>;

export function listDailyNotes(tx: Queryable, p: { agentId: string; limit: number }) {
  return tx.query<DailyNoteSummary>(
    `select doc_date::text as date, version, char_length(content) as chars, updated_at as "updatedAt"
       from agent_documents where agent_id = $1 and type = 'daily'
      order by doc_date desc limit $2`,
    [p.agentId, p.limit],
  );
}

/** Every document of an agent (the export). */
export function listDocuments(tx: Queryable, p: { agentId: string }) {
  return tx.query<DocumentRow>(`select ${COLUMNS} from agent_documents where agent_id = $1 order by type, doc_date`, [p.agentId]);
}
