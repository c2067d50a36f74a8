import "server-only";
import type { z } from "zod";
import type { Queryable } from "@/lib/db";
import type { clientView } from "./contracts";

export type ClientRow = z.output<typeof clientView>;

const COLUMNS = `id, name, slug, trigger_terms as "triggerTerms", created_at as "createdAt", updated_at as "updatedAt"`;

export function listClients(tx: Queryable) {
  return tx.query<ClientRow>(`select ${COLUMNS} from clients order by name`);
}

export async function getClient(tx: Queryable, p: { id: string }) {
  return (await tx.query<ClientRow>(`select ${COLUMNS} from clients where id = $1`, [p.id]))[0] ?? null;
}

export async function insertClient(tx: Queryable, p: { name: string; slug: string; triggerTerms: string[] }) {
  const rows = await tx.query<ClientRow>(
    `insert into clients (name, slug, trigger_terms) values ($1, $2, $3) returning ${COLUMNS}`,
    [p.name, p.slug, p.triggerTerms],
  );
  return rows[0]!;
}

export async function updateClient(tx: Queryable, p: { id: string; name?: string; triggerTerms?: string[] }) {
  const rows = await tx.query<ClientRow>(
    `update clients set name = coalesce($2, name), trigger_terms = coalesce($3, trigger_terms)
      where id = $1 returning ${COLUMNS}`,
    [p.id, p.name ?? null, p.triggerTerms ?? null],
  );
  return rows[0] ?? null;
}
