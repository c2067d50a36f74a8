import "server-only";
import type { Queryable } from "@/lib/db";
import { cursorTime } from "@/lib/db/keyset";
import type { RankedCursor } from "@/lib/http/input-guards";
import type { z } from "zod";
import type { ServerResponse } from "@/lib/http/contract";
import type { contactListItemView, contactView, factView, reviewContracts, suggestionView } from "./contracts";

// Tenancy lives in RLS (mhq.in_contact_scope) and, where a caller narrows a listing, in the WHERE
// clause. `clientId` filters take a uuid, "hq" (HQ's own contacts, client_id null) or nothing (all
// the caller may see).

export type ContactRow = z.output<typeof contactView>;

// what a field manager's opt-out left for HQ to erase; the table's policy shows it to HQ admins and
// internal managers only, so for everyone else this is null
const HQ_ERASURE = `(select jsonb_build_object('name', e.name, 'phone', e.phone, 'email', e.email, 'hqRows', e.hq_rows,
            'requestedAt', to_char(e.requested_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
       from contact_hq_erasures e where e.contact_id = c.id) as "hqErasure"`;

const CONTACT_SELECT = `
  select c.id, c.client_id as "clientId", cl.name as "clientName", c.name, c.phone, c.email, c.summary,
         c.stage, c.sentiment, c.opt_out as "optOut", c.opted_out_at as "optedOutAt",
         ${HQ_ERASURE}, c.created_at as "createdAt", c.updated_at as "updatedAt"
    from contacts c left join clients cl on cl.id = c.client_id`;

const clientFilter = (column: string, param: string) =>
  `(${param}::text is null or (${param}::text = 'hq' and ${column} is null) or ${column}::text = ${param}::text)`;

export async function getContact(tx: Queryable, p: { id: string }) {
  return (await tx.query<ContactRow>(`${CONTACT_SELECT} where c.id = $1`, [p.id]))[0] ?? null;
}

export interface ContactFilters {
  clientId?: string;
  q?: string;
  includeOptedOut?: boolean;
  hqErasure?: "pending";
}

// $1 client, $2 words (name, email, or the digits of a phone), $3 opted-out ones too, $4 only those
// whose erasure HQ has still to finish
const CONTACT_FILTERS = `${clientFilter("c.client_id", "$1")}
        and ($2::text is null
             or c.name ilike '%' || $2 || '%'
             or c.email ilike '%' || $2 || '%'
             or (regexp_replace($2, '[^0-9]', '', 'g') <> '' and c.phone like '%' || regexp_replace($2, '[^0-9]', '', 'g') || '%'))
        and ($3::boolean or $4::boolean or not c.opt_out)
        and (not $4::boolean or exists (select 1 from contact_hq_erasures e where e.contact_id = c.id))`;

const contactFilterParams = (p: ContactFilters) => [p.clientId ?? null, p.q ?? null, p.includeOptedOut ?? false, p.hqErasure === "pending"];

/** Contacts, the most recently updated first: `limit + 1` after the cursor "updatedAt|id" of the previous page's last. */
export function listContacts(tx: Queryable, p: ContactFilters & { limit: number; cursor?: string }) {
  const [cursorAt, cursorId] = p.cursor ? p.cursor.split("|") : [null, null];
  return tx.query<z.output<typeof contactListItemView> & { cursor: string }>(
    `select c.id, c.client_id as "clientId", cl.name as "clientName", c.name, c.phone, c.email, c.summary,
            c.stage, c.sentiment, c.opt_out as "optOut", c.opted_out_at as "optedOutAt",
            ${HQ_ERASURE}, c.created_at as "createdAt", c.updated_at as "updatedAt",
            (select count(*)::int from facts f where f.contact_id = c.id and f.status = 'active') as "factCount",
            (select count(*)::int from memory_suggestions s where s.contact_id = c.id and s.status = 'pending') as "pendingCount",
            ${cursorTime("c.updated_at")} || '|' || c.id as cursor
       from contacts c left join clients cl on cl.id = c.client_id
      where ${CONTACT_FILTERS}
        and ($6::timestamptz is null or (c.updated_at, c.id) < ($6::timestamptz, $7::uuid))
      order by c.updated_at desc, c.id desc
      limit $5 + 1`,
    [...contactFilterParams(p), p.limit, cursorAt ?? null, cursorId ?? null],
  );
}

export async function countContacts(tx: Queryable, p: ContactFilters) {
  const rows = await tx.query<{ count: number }>(`select count(*)::int as count from contacts c where ${CONTACT_FILTERS}`, contactFilterParams(p));
  return rows[0]!.count;
}

/** Contacts matching a normalised phone or a case-insensitive email (several when internal callers see several clients). */
export function findContacts(tx: Queryable, p: { phone?: string; email?: string; clientId?: string }) {
  return tx.query<ContactRow>(
    `${CONTACT_SELECT}
      where (($1::text is not null and c.phone = $1) or ($2::text is not null and lower(c.email) = lower($2)))
        and ${clientFilter("c.client_id", "$3")}
      order by c.created_at`,
    [p.phone ?? null, p.email ?? null, p.clientId ?? null],
  );
}

export async function insertContact(
  tx: Queryable,
  p: { clientId: string | null; name: string | null; phone: string | null; email: string | null; summary: string; stage: string; sentiment: string | null },
) {
  const rows = await tx.query<{ id: string }>(
    `insert into contacts (client_id, name, phone, email, summary, stage, sentiment)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [p.clientId, p.name, p.phone, p.email, p.summary, p.stage, p.sentiment],
  );
  return rows[0]!.id;
}

export async function updateContact(
  tx: Queryable,
  p: { id: string; name?: string | null; phone?: string | null; email?: string | null; summary?: string; stage?: string; sentiment?: string | null },
) {
  // undefined leaves a column alone; null clears it
  const rows = await tx.query<{ id: string }>(
    `update contacts set
        name = case when $2 then $3 else name end,
        phone = case when $4 then $5 else phone end,
        email = case when $6 then $7 else email end,
        summary = coalesce($8, summary),
        stage = coalesce($9, stage),
        sentiment = case when $10 then $11 else sentiment end
      where id = $1 and not opt_out returning id`,
    [
      p.id,
      p.name !== undefined, p.name ?? null,
      p.phone !== undefined, p.phone ?? null,
      p.email !== undefined, p.email ?? null,
      p.summary ?? null,
      p.stage ?? null,
      p.sentiment !== undefined, p.sentiment ?? null,
    ],
  );
  return rows[0]?.id ?? null;
}

/** Serialises every change to one contact's facts (conflict resolution reads, then writes). */
export async function lockContactFacts(tx: Queryable, p: { contactId: string }) {
  await tx.query("select pg_advisory_xact_lock(hashtextextended('mhq.contact_facts:' || $1::text, 0))", [p.contactId]);
}

/** The fact locks of several contacts, taken in id order (as every writer of several takes them). */
export async function lockContactsFacts(tx: Queryable, p: { contactIds: string[] }) {
  if (!p.contactIds.length) return;
  await tx.query(
    `select pg_advisory_xact_lock(hashtextextended('mhq.contact_facts:' || c.id::text, 0))
       from (select distinct id from unnest($1::uuid[]) as u (id) order by id) as c`,
    [p.contactIds],
  );
}

/**
 * Holds contacts before their suggestions are decided (mhq.hold_contacts): the ids held, in id order.
 * `skipLocked` leaves out a contact an erasure holds instead of waiting for it.
 */
export async function holdContacts(tx: Queryable, p: { ids: string[]; skipLocked: boolean }) {
  if (!p.ids.length) return [];
  const rows = await tx.query<{ id: string }>("select id from mhq.hold_contacts($1::uuid[], $2) as h (id)", [[...new Set(p.ids)], p.skipLocked]);
  return rows.map((r) => r.id);
}

export async function eraseContact(tx: Queryable, p: { id: string }) {
  const rows = await tx.query<{ counts: ServerResponse<typeof reviewContracts.optOut>["erased"] }>("select mhq.erase_contact($1) as counts", [p.id]);
  return rows[0]!.counts;
}

/** Drops what a field manager's opt-out kept for HQ to erase (mhq.keep_hq_mentions); false when nothing was kept. */
export async function keepHqMentions(tx: Queryable, p: { id: string }) {
  const rows = await tx.query<{ kept: boolean }>("select mhq.keep_hq_mentions($1) as kept", [p.id]);
  return rows[0]!.kept;
}

// ── allow-list ──────────────────────────────────────────────────────────────────────────────────

export async function getFactKeys(tx: Queryable, p: { clientId: string | null }): Promise<string[]> {
  if (!p.clientId) return [];
  const rows = await tx.query<{ factKeys: string[] }>(`select fact_keys as "factKeys" from clients where id = $1`, [p.clientId]);
  return rows[0]?.factKeys ?? [];
}

export async function setFactKeys(tx: Queryable, p: { clientId: string; keys: string[] }) {
  const rows = await tx.query<{ factKeys: string[] }>(
    `update clients set fact_keys = $2 where id = $1 returning fact_keys as "factKeys"`,
    [p.clientId, p.keys],
  );
  return rows[0]?.factKeys ?? null;
}

// ── facts ───────────────────────────────────────────────────────────────────────────────────────

export type FactRow = z.output<typeof factView>;

const FACT_COLUMNS = `id, contact_id as "contactId", key, value, confidence, status, superseded_by as "supersededBy",
  superseded_at as "supersededAt", source_suggestion_id as "sourceSuggestionId", written_by_type as "writtenByType",
  written_by_name as "writtenByName", created_at as "createdAt"`;

export function listActiveFacts(tx: Queryable, p: { contactId: string }) {
  return tx.query<FactRow>(`select ${FACT_COLUMNS} from facts where contact_id = $1 and status = 'active' order by key`, [p.contactId]);
}

export function listFactHistory(tx: Queryable, p: { contactId: string; key?: string }) {
  return tx.query<FactRow>(
    `select ${FACT_COLUMNS} from facts where contact_id = $1 and ($2::text is null or key = $2)
      order by key, created_at desc`,
    [p.contactId, p.key ?? null],
  );
}

export async function getActiveFact(tx: Queryable, p: { contactId: string; key: string }) {
  return (
    (await tx.query<FactRow>(`select ${FACT_COLUMNS} from facts where contact_id = $1 and key = $2 and status = 'active'`, [
      p.contactId,
      p.key,
    ]))[0] ?? null
  );
}

export async function retireFact(tx: Queryable, p: { id: string }) {
  const rows = await tx.query<{ id: string }>(
    `update facts set status = 'superseded', superseded_at = now() where id = $1 and status = 'active' returning id`,
    [p.id],
  );
  return rows.length > 0;
}

export async function pointToWinner(tx: Queryable, p: { loserId: string; winnerId: string }) {
  await tx.query(`update facts set superseded_by = $2 where id = $1`, [p.loserId, p.winnerId]);
}

export async function insertFact(
  tx: Queryable,
  p: { contactId: string; key: string; value: string; confidence: number; sourceSuggestionId: string | null },
) {
  const rows = await tx.query<FactRow>(
    `insert into facts (contact_id, key, value, confidence, source_suggestion_id)
     values ($1, $2, $3, $4, $5) returning ${FACT_COLUMNS}`,
    [p.contactId, p.key, p.value, p.confidence, p.sourceSuggestionId],
  );
  return rows[0]!;
}

// ── suggestions ─────────────────────────────────────────────────────────────────────────────────

type Suggestion = z.output<typeof suggestionView>;
type CurrentFact = NonNullable<Suggestion["currentFact"]>;
type SourceInteraction = NonNullable<Suggestion["interaction"]>;

/** A suggestion's own columns: the view adds its contact, the fact it would replace, its source and the verdict. */
export type SuggestionRow = Omit<Suggestion, "contact" | "clientName" | "currentFact" | "interaction" | "verdict" | "approvedValue">;

const SUGGESTION_COLUMNS = `s.id, s.contact_id as "contactId", s.client_id as "clientId", s.key, s.value, s.confidence,
  s.interaction_id as "interactionId", s.status, s.reason, s.flags, s.fact_id as "factId",
  s.proposed_by_type as "proposedByType", s.proposed_by_id as "proposedById", s.proposed_by_name as "proposedByName",
  s.reviewed_by_type as "reviewedByType", s.reviewed_by_name as "reviewedByName", s.reviewed_at as "reviewedAt",
  s.created_at as "createdAt", s.updated_at as "updatedAt"`;

/**
 * A suggestion with the rows beside it flat, as joined (null where a left join found none, or RLS
 * hid it); `toSuggestionView` nests them as the view shows them.
 */
export type SuggestionListRow = SuggestionRow & {
  approvedValue: Suggestion["approvedValue"];
  contactName: Suggestion["contact"]["name"];
  contactOptOut: Suggestion["contact"]["optOut"];
  clientName: Suggestion["clientName"];
  currentFactId: CurrentFact["id"] | null;
  currentValue: CurrentFact["value"] | null;
  currentConfidence: CurrentFact["confidence"] | null;
  interactionChannel: SourceInteraction["channel"];
  interactionExcerpt: SourceInteraction["excerpt"] | null;
  interactionOccurredAt: SourceInteraction["occurredAt"];
};

export async function getSuggestion(tx: Queryable, p: { id: string; forUpdate?: boolean }) {
  return (
    (await tx.query<SuggestionRow>(
      `select ${SUGGESTION_COLUMNS} from memory_suggestions s where s.id = $1${p.forUpdate ? " for update" : ""}`,
      [p.id],
    ))[0] ?? null
  );
}

export interface SuggestionFilters {
  id?: string;
  status?: string;
  contactId?: string;
  clientId?: string;
  key?: string;
  /** part of the key, the value, the contact's name or the proposer's name */
  q?: string;
}

// $1 status, $2 contact, $3 client, $4 key, $5 id, $6 words
const SUGGESTION_FILTERS = `($1::text is null or s.status = $1)
        and ($2::uuid is null or s.contact_id = $2)
        and ${clientFilter("s.client_id", "$3")}
        and ($4::text is null or s.key = $4)
        and ($5::uuid is null or s.id = $5)
        and ($6::text is null or s.key ilike '%' || $6 || '%' or s.value ilike '%' || $6 || '%'
             or c.name ilike '%' || $6 || '%' or s.proposed_by_name ilike '%' || $6 || '%')`;

const filterParams = (p: SuggestionFilters) => [p.status ?? null, p.contactId ?? null, p.clientId ?? null, p.key ?? null, p.id ?? null, p.q ?? null];

/**
 * Suggestions in the queue's order — pending ones first, oldest first (the order a reviewer works
 * in), then decided ones, the most recently decided first — `limit + 1` of them after `after` (the
 * previous page's last row), each with its keyset cursor: rank 0 pending (by creation), 1 decided (by decision).
 */
export function listSuggestions(tx: Queryable, p: SuggestionFilters & { limit: number; after?: RankedCursor }) {
  // interactions are joined with a left join: a specialist may not read them, and RLS hides the row
  return tx.query<SuggestionListRow & { cursor: string }>(
    `select ${SUGGESTION_COLUMNS}, c.name as "contactName", c.opt_out as "contactOptOut", cl.name as "clientName",
            f.id as "currentFactId", f.value as "currentValue", f.confidence as "currentConfidence",
            case when s.status = 'approved' then af.value end as "approvedValue",
            i.channel as "interactionChannel", left(i.content, 600) as "interactionExcerpt", i.occurred_at as "interactionOccurredAt",
            case when s.status = 'pending' then '0|' || ${cursorTime("s.created_at")} else '1|' || ${cursorTime("s.reviewed_at")} end
              || '|' || s.id as cursor
       from memory_suggestions s
       join contacts c on c.id = s.contact_id
       left join clients cl on cl.id = s.client_id
       left join facts f on f.contact_id = s.contact_id and f.key = s.key and f.status = 'active'
       -- an approved suggestion's fact holds the value it stored (the reviewer's edit, if any)
       left join facts af on af.id = s.fact_id
       left join interactions i on i.id = s.interaction_id
      where ${SUGGESTION_FILTERS}
        and ($8::int is null
             or (s.status <> 'pending')::int > $8
             or ((s.status <> 'pending')::int = $8
                 and (($8 = 0 and (s.created_at, s.id) > ($9::timestamptz, $10::uuid))
                      or ($8 = 1 and (s.reviewed_at, s.id) < ($9::timestamptz, $10::uuid)))))
      order by s.status <> 'pending',
               case when s.status = 'pending' then s.created_at end, case when s.status = 'pending' then s.id end,
               s.reviewed_at desc, s.id desc
      limit $7 + 1`,
    [...filterParams(p), p.limit, p.after?.rank ?? null, p.after?.at ?? null, p.after?.id ?? null],
  );
}

/** How many suggestions match the filters (all pages). */
export async function countSuggestions(tx: Queryable, p: SuggestionFilters) {
  const rows = await tx.query<{ count: number }>(
    `select count(*)::int as count from memory_suggestions s join contacts c on c.id = s.contact_id where ${SUGGESTION_FILTERS}`,
    filterParams(p),
  );
  return rows[0]!.count;
}

export async function insertSuggestion(
  tx: Queryable,
  p: {
    contactId: string;
    key: string;
    value: string;
    confidence: number;
    interactionId: string | null;
    flags: unknown[];
  },
) {
  const rows = await tx.query<{ id: string }>(
    `insert into memory_suggestions (contact_id, key, value, confidence, interaction_id, flags, status)
     values ($1, $2, $3, $4, $5, $6::text::jsonb, 'pending')
     returning id`,
    [p.contactId, p.key, p.value, p.confidence, p.interactionId, JSON.stringify(p.flags)],
  );
  return rows[0]!.id;
}

/**
 * Decides a pending suggestion. Conditional on `status = 'pending'`, so of two reviewers (or two
 * manager passes) deciding the same suggestion exactly one succeeds; the other gets false.
 */
export async function decideSuggestion(
  tx: Queryable,
  p: { id: string; status: "approved" | "rejected" | "superseded"; reason: string | null; factId: string | null; flags?: unknown[]; system?: boolean },
) {
  const rows = await tx.query<{ id: string }>(
    `update memory_suggestions
        set status = $2, reason = $3, fact_id = $4, flags = coalesce($5::text::jsonb, flags),
            reviewed_by_type = mhq.current_actor_type(), reviewed_by_id = mhq.current_actor_id(),
            reviewed_by_name = mhq.current_actor_name() || case when $6 then ' (manager pass)' else '' end,
            reviewed_at = now()
      where id = $1 and status = 'pending' returning id`,
    [p.id, p.status, p.reason, p.factId, p.flags ? JSON.stringify(p.flags) : null, p.system ?? false],
  );
  return rows.length > 0;
}

export async function setSuggestionFlags(tx: Queryable, p: { id: string; flags: unknown[] }) {
  await tx.query(
    `update memory_suggestions set flags = $2::text::jsonb, checked_at = now() where id = $1 and status = 'pending'`,
    [p.id, JSON.stringify(p.flags)],
  );
}

/**
 * Claims up to `limit` pending suggestions for this transaction; rows another pass holds are
 * skipped. Never-checked ones come first, then the longest unchecked, so suggestions left for a
 * person never starve newer ones out of a bounded pass.
 */
export function claimPendingSuggestions(tx: Queryable, p: { limit: number }) {
  return tx.query<SuggestionRow>(
    `select ${SUGGESTION_COLUMNS} from memory_suggestions s
      where s.status = 'pending'
      order by s.checked_at asc nulls first, s.created_at, s.id
      limit $1
      for update skip locked`,
    [p.limit],
  );
}

/**
 * Whether an interaction may be cited as the source of a suggestion about a contact: same client,
 * and not about somebody else. Asked through a security-definer function because specialists write
 * interactions without being allowed to read them back.
 */
/** An identical proposal still waiting (same contact, key and value), if any: re-running an extractor adds nothing. */
export async function findPendingDuplicate(tx: Queryable, p: { contactId: string; key: string; value: string }) {
  const rows = await tx.query<{ id: string }>(
    `select id from memory_suggestions
      where contact_id = $1 and key = $2 and status = 'pending'
        and lower(regexp_replace(btrim(value), '\\s+', ' ', 'g')) = lower(regexp_replace(btrim($3), '\\s+', ' ', 'g'))
      order by created_at limit 1`,
    [p.contactId, p.key, p.value],
  );
  return rows[0]?.id ?? null;
}

export async function interactionFitsContact(tx: Queryable, p: { interactionId: string; contactId: string }) {
  const rows = await tx.query<{ ok: boolean }>(`select mhq.interaction_fits_contact($1, $2) as ok`, [p.interactionId, p.contactId]);
  return rows[0]?.ok ?? false;
}
