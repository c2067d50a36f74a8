import type { Queryable } from "@/lib/db";

/** The trigger vocabulary's generation: advances with every change to the names it is built from. */
export async function vocabularyGeneration(tx: Queryable): Promise<string> {
  const rows = await tx.query<{ g: string }>(
    `select case when is_called then last_value::text else '0' end as g from mhq.vocabulary_generation`,
  );
  return rows[0]?.g ?? "0";
}
