import "server-only";
import type { Queryable } from "@/lib/db";
import type { z } from "zod";
import type { missionView } from "./contracts";

export type MissionRow = z.output<typeof missionView>;

const COLUMNS = `id, title, status, summary, client_id as "clientId", created_by_name as "createdByName",
  created_at as "createdAt", updated_at as "updatedAt"`;

export function listMissions(tx: Queryable, p: { status?: string }) {
  return tx.query<MissionRow>(
    `select ${COLUMNS} from missions where ($1::text is null or status = $1) order by updated_at desc limit 500`,
    [p.status ?? null],
  );
}

export async function insertMission(
  tx: Queryable,
  p: { title: string; status: string; summary: string; clientId: string | null; createdByName: string },
) {
  const rows = await tx.query<MissionRow>(
    `insert into missions (title, status, summary, client_id, created_by_name)
     values ($1, $2, $3, $4, $5) returning ${COLUMNS}`,
    [p.title, p.status, p.summary, p.clientId, p.createdByName],
  );
  return rows[0]!;
}

export async function updateMission(tx: Queryable, p: { id: string; title?: string; status?: string; summary?: string }) {
  const rows = await tx.query<MissionRow>(
    `update missions set title = coalesce($2, title), status = coalesce($3, status), summary = coalesce($4, summary)
      where id = $1 returning ${COLUMNS}`,
    [p.id, p.title ?? null, p.status ?? null, p.summary ?? null],
  );
  return rows[0] ?? null;
}
