import "server-only";
import type { z } from "zod";
import type { Queryable } from "@/lib/db";
import type { ServerResponse } from "@/lib/http/contract";
import type { Attachment } from "./attachments";
import type { interactionView, memoryContracts } from "./contracts";

export type InteractionRow = z.output<typeof interactionView>;
type InteractionPage = ServerResponse<typeof memoryContracts.listInteractions>;
type ConversationRow = ServerResponse<typeof memoryContracts.listConversations>["conversations"][number];

/** A turn to store: the row's columns, its vector (text form) or null while it waits for one. */
export interface NewInteraction {
  id: string;
  clientId: string | null;
  agentId: string;
  contactId: string | null;
  channel: string;
  direction: "inbound" | "outbound";
  speaker: string;
  content: string;
  occurredAt: Date;
  createdAt: Date;
  conversationId: string | null;
  externalId: string | null;
  attachments: Attachment[];
  embedding: string | null;
}

const COLUMNS = `i.id, i.client_id as "clientId", i.agent_id as "agentId", i.contact_id as "contactId", i.channel, i.direction,
  i.speaker, i.content, i.occurred_at as "occurredAt", (i.embedding is not null) as embedded, i.created_at as "createdAt",
  i.conversation_key as "conversationId", i.external_id as "externalId",
  coalesce(i.conversation_key, d.conversation_id::text, i.id::text) as conversation, i.attachments`;

/**
 * Inserts the turns in one statement, in the order given: that order is their recording order (seq)
 * where times are equal, and the database indexes them for search once for the whole statement —
 * unless they belong to `batchId`, a batch being stored in steps, which indexes them itself and
 * keeps them hidden until it is published (./interaction-batches.ts).
 * Without RETURNING on purpose: specialists may write interactions but not read them back (RLS), and
 * RETURNING would need read access.
 */
export async function insertInteractions(tx: Queryable, rows: NewInteraction[], batchId: string | null = null) {
  const col = <K extends keyof NewInteraction>(k: K) => rows.map((r) => r[k]);
  await tx.query(
    `insert into interactions (id, client_id, agent_id, contact_id, channel, direction, speaker, content, occurred_at,
                               embedding, created_at, conversation_key, external_id, attachments, batch_id)
     select u.id, u.client_id, u.agent_id, u.contact_id, u.channel, u.direction, u.speaker, u.content, u.occurred_at,
            u.embedding::vector, u.created_at, u.conversation_key, u.external_id, u.attachments::jsonb, $15::uuid
       from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[],
                   $9::timestamptz[], $10::text[], $11::timestamptz[], $12::text[], $13::text[], $14::text[])
            with ordinality as u (id, client_id, agent_id, contact_id, channel, direction, speaker, content, occurred_at,
                                  embedding, created_at, conversation_key, external_id, attachments, ord)
      order by u.ord`,
    [
      col("id"), col("clientId"), col("agentId"), col("contactId"), col("channel"), col("direction"), col("speaker"),
      col("content"), rows.map((r) => r.occurredAt.toISOString()), col("embedding"), rows.map((r) => r.createdAt.toISOString()),
      col("conversationId"), col("externalId"), rows.map((r) => JSON.stringify(r.attachments)), batchId,
    ],
  );
}

/**
 * The calling agent's own interactions, by id or by externalId (mhq.own_interactions: specialists,
 * who cannot read interactions otherwise, read only what they wrote themselves).
 */
export function ownInteractions(tx: Queryable, p: { ids?: string[]; externalIds?: string[] }) {
  return tx.query<InteractionRow>(
    `select x.id, x.client_id as "clientId", x.agent_id as "agentId", x.contact_id as "contactId", x.channel, x.direction,
            x.speaker, x.content, x.occurred_at as "occurredAt", x.embedded, x.created_at as "createdAt",
            x.conversation_key as "conversationId", x.external_id as "externalId", x.conversation, x.attachments
       from mhq.own_interactions($1::uuid[], $2::text[]) x`,
    [p.ids ?? [], p.externalIds ?? []],
  );
}

/**
 * Serialises the caller-id writes of one agent: the lookup of stored externalIds and the insert of
 * the new ones happen as one step, so a retry racing the original stores nothing twice.
 */
export async function lockExternalIds(tx: Queryable, p: { agentId: string }) {
  await tx.query(`select pg_advisory_xact_lock(hashtext('mhq.interactions.external_id'), hashtext($1::text))`, [p.agentId]);
}

/** Contacts (visible to the caller under RLS) with their client and opt-out. */
export function contactsForInteractions(tx: Queryable, p: { ids: string[] }) {
  return tx.query<{ id: string; clientId: string | null; optOut: boolean }>(
    `select id, client_id as "clientId", opt_out as "optOut" from contacts where id = any($1::uuid[])`,
    [p.ids],
  );
}

export async function existingClients(tx: Queryable, p: { ids: string[] }) {
  return (await tx.query<{ id: string }>(`select id from clients where id = any($1::uuid[])`, [p.ids])).map((r) => r.id);
}

export interface InteractionFilter {
  agentId?: string;
  clientId?: string;
  contactId?: string;
  /** one conversation: an agent's thread (its conversationId) or an inferred conversation's id */
  conversation?: { agentId: string; id: string };
  channel?: string;
  q?: string;
  before?: string;
  /** keyset: the last row of the previous page */
  after?: { occurredAt: string; seq: number };
  limit: number;
}

/**
 * One page of interactions. With a conversation: that agent's conversation (its thread, or an
 * inferred conversation) in conversation order, (occurred_at, seq) ascending; otherwise newest
 * first. Each row carries its keyset position for the next page's cursor (its time in UTC, to the microsecond).
 */
export async function listInteractions(tx: Queryable, f: InteractionFilter): Promise<{
  rows: InteractionPage["interactions"];
  last: { occurredAt: string; seq: number } | null;
}> {
  const forward = f.conversation !== undefined;
  const rows = await tx.query<InteractionRow & { cursorAt: string; cursorSeq: number }>(
    `select ${COLUMNS}, to_char(i.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "cursorAt", i.seq as "cursorSeq"
       from interactions i
       left join interaction_search_docs d on d.interaction_id = i.id
      where ($1::uuid is null or i.agent_id = $1)
        and ($2::uuid is null or i.client_id = $2)
        and ($3::uuid is null or i.contact_id = $3)
        and ($4::text is null or i.fts @@ websearch_to_tsquery('english', $4))
        and ($5::timestamptz is null or i.occurred_at < $5)
        and ($6::text is null
             or (i.agent_id = $10 and (i.conversation_key = $6 or (i.conversation_key is null and d.conversation_id::text = $6))))
        and ($7::timestamptz is null
             or (${forward ? "(i.occurred_at, i.seq) > ($7, $8)" : "(i.occurred_at, i.seq) < ($7, $8)"}))
        and ($11::text is null or i.channel = $11)
      order by ${forward ? "i.occurred_at, i.seq" : "i.occurred_at desc, i.seq desc"}
      limit $9`,
    [
      f.agentId ?? null, f.clientId ?? null, f.contactId ?? null, f.q ?? null, f.before ?? null, f.conversation?.id ?? null,
      f.after?.occurredAt ?? null, f.after?.seq ?? null, f.limit, f.conversation?.agentId ?? null, f.channel ?? null,
    ],
  );
  const lastRow = rows.at(-1);
  return {
    rows: rows.map(({ cursorAt: _a, cursorSeq: _s, ...r }) => r),
    last: rows.length === f.limit && lastRow ? { occurredAt: lastRow.cursorAt, seq: Number(lastRow.cursorSeq) } : null,
  };
}

/** A contact as a transcript names it: its name, else its email or phone (an opted-out contact keeps none). */
const CONTACT_NAME = `nullif(coalesce(c.name, c.email, c.phone), '')`;

/** The contacts (visible to the caller under RLS) named by `ids`, with the name a transcript shows. */
export function namedContacts(tx: Queryable, p: { ids: string[] }) {
  if (!p.ids.length) return Promise.resolve([]);
  return tx.query<{ id: string; name: string | null }>(`select c.id, ${CONTACT_NAME} as name from contacts c where c.id = any($1::uuid[]) order by c.id`, [p.ids]);
}

export interface ConversationFilter {
  agentId?: string;
  clientId?: string;
  contactId?: string;
  channel?: string;
  /** keyset: the last conversation of the previous page */
  after?: { endedAt: string; agentId: string; conversation: string };
  limit: number;
}

/** A turn's conversation: the caller's thread id, else the inferred conversation, else the turn alone. */
const CONVERSATION_OF = `coalesce(i.conversation_key, d.conversation_id::text, i.id::text)`;

/**
 * One page of conversations, the most recently active first. The filters pick conversations with a
 * matching turn (a thread can span channels); each conversation is then summed up over all its
 * turns. Only the turns of the agents whose conversations matched are grouped, so a contact's page
 * reads the histories of the agents that talked with them, not every interaction.
 */
export async function listConversations(tx: Queryable, f: ConversationFilter): Promise<{
  rows: ConversationRow[];
  last: { endedAt: string; agentId: string; conversation: string } | null;
}> {
  const rows = await tx.query<ConversationRow & { cursorAt: string }>(
    `with matched as (
       select distinct i.agent_id, ${CONVERSATION_OF} as conversation
         from interactions i
         left join interaction_search_docs d on d.interaction_id = i.id
        where ($1::uuid is null or i.agent_id = $1)
          and ($2::uuid is null or i.client_id = $2)
          and ($3::uuid is null or i.contact_id = $3)
          and ($4::text is null or i.channel = $4)
     ),
     turns as (
       select i.agent_id, ${CONVERSATION_OF} as conversation, i.conversation_key, i.client_id, i.contact_id, i.channel,
              i.direction, i.speaker, i.content, i.occurred_at, i.seq
         from interactions i
         left join interaction_search_docs d on d.interaction_id = i.id
        where i.agent_id in (select agent_id from matched)
     ),
     grouped as (
       select t.agent_id, t.conversation, max(t.conversation_key) as conversation_key,
              (array_agg(t.client_id order by t.occurred_at, t.seq))[1] as client_id,
              (array_agg(t.contact_id order by t.occurred_at, t.seq) filter (where t.contact_id is not null))[1] as contact_id,
              (array_agg(t.speaker order by t.occurred_at, t.seq) filter (where t.direction = 'inbound' and t.speaker <> ''))[1] as inbound_speaker,
              array_agg(distinct t.channel order by t.channel) as channels,
              min(t.occurred_at) as started_at, max(t.occurred_at) as ended_at, count(*)::int as turns,
              (array_agg(t.direction order by t.occurred_at desc, t.seq desc))[1] as last_direction,
              (array_agg(t.speaker order by t.occurred_at desc, t.seq desc))[1] as last_speaker,
              (array_agg(left(t.content, 200) order by t.occurred_at desc, t.seq desc))[1] as last_content
         from turns t
         join matched m on m.agent_id = t.agent_id and m.conversation = t.conversation
        group by t.agent_id, t.conversation
     )
     select g.conversation, g.agent_id as "agentId", a.name as "agentName", g.conversation_key as "conversationId",
            g.client_id as "clientId", g.contact_id as "contactId", ${CONTACT_NAME} as "contactName",
            g.inbound_speaker as "inboundSpeaker", g.channels, g.started_at as "startedAt", g.ended_at as "endedAt",
            g.turns, json_build_object('direction', g.last_direction, 'speaker', g.last_speaker, 'content', g.last_content) as "lastTurn",
            to_char(g.ended_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "cursorAt"
       from grouped g
       left join agents a on a.id = g.agent_id
       left join contacts c on c.id = g.contact_id
      where $5::timestamptz is null or (g.ended_at, g.agent_id, g.conversation) < ($5, $6::uuid, $7::text)
      order by g.ended_at desc, g.agent_id desc, g.conversation desc
      limit $8`,
    [
      f.agentId ?? null, f.clientId ?? null, f.contactId ?? null, f.channel ?? null,
      f.after?.endedAt ?? null, f.after?.agentId ?? null, f.after?.conversation ?? null, f.limit,
    ],
  );
  const lastRow = rows.at(-1);
  return {
    rows: rows.map(({ cursorAt: _c, ...r }) => ({ ...r, lastTurn: typeof r.lastTurn === "string" ? JSON.parse(r.lastTurn) : r.lastTurn })),
    last: rows.length === f.limit && lastRow ? { endedAt: lastRow.cursorAt, agentId: lastRow.agentId, conversation: lastRow.conversation } : null,
  };
}
