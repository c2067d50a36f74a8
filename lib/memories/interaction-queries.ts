import "server-only";
import type { z } from "zod";
import type { Queryable } from "@/lib/db";
import type { interactionView } from "./contracts";

export type InteractionRow = z.output<typeof interactionView>;

const COLUMNS = `id, client_id as "clientId", agent_id as "agentId", contact_id as "contactId", channel, direction,
  speaker, content, occurred_at as "occurredAt", (embedding is not null) as embedded, created_at as "createdAt"`;

/**
 * Inserts without RETURNING on purpose: specialists may write interactions but not read them back
 * (RLS), and RETURNING would need read access.
 */
export async function insertInteraction(
  tx: Queryable,
  p: Omit<InteractionRow, "embedded"> & { embedding: string | null },
) {
  await tx.query(
    `insert into interactions (id, client_id, agent_id, contact_id, channel, direction, speaker, content, occurred_at,
                               embedding, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::vector, $11)`,
    [p.id, p.clientId, p.agentId, p.contactId, p.channel, p.direction, p.speaker, p.content, p.occurredAt, p.embedding, p.createdAt],
  );
}

export function listInteractions(
  tx: Queryable,
  f: { agentId?: string; clientId?: string; contactId?: string; q?: string; before?: string; limit: number },
) {
  return tx.query<InteractionRow>(
    `select ${COLUMNS} from interactions
      where ($1::uuid is null or agent_id = $1)
        and ($2::uuid is null or client_id = $2)
        and ($3::uuid is null or contact_id = $3)
        and ($4::text is null or fts @@ websearch_to_tsquery('english', $4))
        and ($5::timestamptz is null or occurred_at < $5)
      order by occurred_at desc, id
      limit $6`,
    [f.agentId ?? null, f.clientId ?? null, f.contactId ?? null, f.q ?? null, f.before ?? null, f.limit],
  );
}
