import "server-only";
import type { Queryable } from "@/lib/db";
import type { z } from "zod";
import type { lockedConstantView } from "./contracts";

export type LockedConstantRow = z.output<typeof lockedConstantView>;

const COLUMNS = `id, key, label, value, category, description, updated_by_name as "updatedByName", updated_at as "updatedAt"`;

export function listLockedConstants(tx: Queryable) {
  return tx.query<LockedConstantRow>(`select ${COLUMNS} from locked_constants order by category, key`);
}

export async function upsertLockedConstant(
  tx: Queryable,
  p: { key: string; label: string; value: string; category: string; description: string; updatedByName: string },
) {
  const rows = await tx.query<LockedConstantRow & { inserted: boolean }>(
    `insert into locked_constants (key, label, value, category, description, updated_by_name)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (key) do update set label = excluded.label, value = excluded.value, category = excluded.category,
       description = excluded.description, updated_by_name = excluded.updated_by_name
     returning ${COLUMNS}, (xmax = 0) as inserted`,
    [p.key, p.label, p.value, p.category, p.description, p.updatedByName],
  );
  return rows[0]!;
}

export async function deleteLockedConstant(tx: Queryable, p: { key: string }) {
  const rows = await tx.query<{ id: string }>("delete from locked_constants where key = $1 returning id", [p.key]);
  return rows[0]?.id ?? null;
}
