import "server-only";
import { keysetPage } from "@/lib/db/keyset";
import type { z } from "zod";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { asCaller, type Queryable } from "@/lib/db";
import { ApiError, notFound } from "@/lib/http/errors";
import { loadValidationContext, writeFactResolvingConflict } from "./apply-suggestion";
import { normalizeEmail, normalizePhone } from "./contact-identity";
import { detectPii, describePii } from "./pii";
import * as q from "./queries";
import {
  factKey,
  type createContactBody,
  type factKeysBody,
  type listContactsQuery,
  type lookupContactQuery,
  type putFactBody,
  type updateContactBody,
} from "./schemas";
import { refusalError, type Refusal } from "./refusals";
import { validateSuggestion } from "./validate-suggestion";
import { noteSearchWrite } from "@/lib/retrieval/search/term-stats";

/** Loads a contact the caller may see, or answers 404 (another client's contact does not exist for you). */
export async function requireVisibleContact(tx: Queryable, id: string) {
  const contact = await q.getContact(tx, { id });
  if (!contact) throw notFound("Contact");
  return contact;
}

function requireNotOptedOut(contact: q.ContactRow) {
  if (contact.optOut) throw new ApiError("conflict", "This contact opted out; nothing more is stored about them");
}

function parsePhone(phone: string | null | undefined): string | null | undefined {
  if (phone === undefined || phone === null) return phone;
  const e164 = normalizePhone(phone);
  if (!e164) {
    throw new ApiError("validation_failed", "phone: not a phone number (use digits, optionally with +country code)", [
      { path: "phone", message: "not a phone number" },
    ]);
  }
  return e164;
}

/** The client a new contact belongs to: a field agent's own; otherwise the named one, or HQ (null). */
async function resolveClientId(tx: Queryable, caller: Caller, requested: string | undefined): Promise<string | null> {
  if (caller.type === "agent" && caller.kind === "field") {
    if (requested && requested !== caller.clientId) throw notFound("Client");
    return caller.clientId;
  }
  if (!requested) return null;
  const rows = await tx.query("select 1 from clients where id = $1", [requested]);
  if (!rows.length) throw new ApiError("validation_failed", "clientId does not name a client");
  return requested;
}

/**
 * A contact's summary is held to the full rule (no SSN, card number, health, religion or politics);
 * its name only to the numbers: a name such as "Christian" or "Faith" must stay storable.
 */
function refusePersonalData(body: { summary?: string; name?: string | null }) {
  const findings = [
    ...(body.summary ? detectPii({ key: "summary", value: body.summary }).map((f) => ({ ...f, field: f.field === "value" ? "summary" : f.field })) : []),
    ...(body.name
      ? detectPii({ key: "name", value: body.name })
          .filter((f) => f.field === "value" && (f.kind === "ssn" || f.kind === "payment_card"))
          .map((f) => ({ ...f, field: "name" }))
      : []),
  ];
  if (findings.length) throw new ApiError("pii_refused", findings.map(describePii).join("; "), { findings });
}

/** Contacts a page at a time, the most recently updated first (keyset: `cursor` is the previous page's `nextCursor`). */
export async function listContacts(caller: Caller, query: z.infer<typeof listContactsQuery>) {
  const { limit, cursor, ...filters } = query;
  return asCaller(caller, async (tx) => {
    const [rows, total] = await Promise.all([q.listContacts(tx, { ...filters, limit, cursor }), q.countContacts(tx, filters)]);
    const page = keysetPage(rows, limit);
    return { contacts: page.rows, nextCursor: page.nextCursor, total };
  });
}

export async function createContact(caller: Caller, body: z.infer<typeof createContactBody>) {
  const phone = parsePhone(body.phone) ?? null;
  const email = body.email ? normalizeEmail(body.email) : null;
  refusePersonalData(body);
  return asCaller(caller, async (tx) => {
    const clientId = await resolveClientId(tx, caller, body.clientId);
    const clientKey = clientId ?? "hq";
    for (const [field, value] of [["phone", phone], ["email", email]] as const) {
      if (!value) continue;
      const existing = await q.findContacts(tx, { [field]: value, clientId: clientKey });
      if (existing.length) {
        throw new ApiError("conflict", `A contact with this ${field} already exists`, { contactId: existing[0]!.id });
      }
    }
    const id = await q.insertContact(tx, {
      clientId,
      name: body.name ?? null,
      phone,
      email,
      summary: body.summary ?? "",
      stage: body.stage ?? "new",
      sentiment: body.sentiment ?? null,
    });
    // no personal data in the audit log: which fields were given, not their values
    await recordAudit(tx, {
      action: "contact.create",
      targetType: "contact",
      targetId: id,
      clientId,
      details: { fields: (["name", "phone", "email", "summary"] as const).filter((f) => Boolean(body[f])), stage: body.stage ?? "new" },
    });
    return { contact: (await q.getContact(tx, { id }))!, facts: [] as q.FactRow[] };
  });
}

export async function getContact(caller: Caller, id: string) {
  return asCaller(caller, async (tx) => {
    const contact = await requireVisibleContact(tx, id);
    return { contact, facts: await q.listActiveFacts(tx, { contactId: id }) };
  });
}

/** `get_memory(phone)`: the contact and its facts in one call, for the orchestrator. */
export async function lookupContact(caller: Caller, query: z.infer<typeof lookupContactQuery>) {
  const phone = query.phone ? normalizePhone(query.phone) : undefined;
  if (query.phone && !phone) throw notFound("Contact");
  return asCaller(caller, async (tx) => {
    const matches = await q.findContacts(tx, {
      phone: phone ?? undefined,
      email: query.email ? normalizeEmail(query.email) : undefined,
      clientId: query.clientId,
    });
    if (matches.length === 0) throw notFound("Contact");
    if (matches.length > 1) {
      throw new ApiError("conflict", "Several clients know this contact; pass clientId (or clientId=hq)", {
        candidates: matches.map((m) => ({ id: m.id, clientId: m.clientId, clientName: m.clientName })),
      });
    }
    const contact = matches[0]!;
    return { contact, facts: await q.listActiveFacts(tx, { contactId: contact.id }) };
  });
}

export async function updateContact(caller: Caller, id: string, body: z.infer<typeof updateContactBody>) {
  const phone = parsePhone(body.phone);
  refusePersonalData(body);
  return asCaller(caller, async (tx) => {
    const contact = await requireVisibleContact(tx, id);
    requireNotOptedOut(contact);
    const email = body.email === undefined || body.email === null ? body.email : normalizeEmail(body.email);
    // as at creation, a contact is known by at least one of its name, phone and email
    const kept = { name: body.name === undefined ? contact.name : body.name, phone: phone === undefined ? contact.phone : phone, email: email === undefined ? contact.email : email };
    if (!kept.name && !kept.phone && !kept.email) {
      const message = "a contact keeps at least one of name, phone and email";
      throw new ApiError("validation_failed", `body: ${message}`, [{ path: "", message, code: "custom" }]);
    }
    for (const [field, value] of [["phone", phone], ["email", email]] as const) {
      if (!value) continue;
      const existing = await q.findContacts(tx, { [field]: value, clientId: contact.clientId ?? "hq" });
      if (existing.some((c) => c.id !== id)) throw new ApiError("conflict", `Another contact has this ${field}`);
    }
    await q.updateContact(tx, { id, ...body, phone, email });
    await recordAudit(tx, {
      action: "contact.update",
      targetType: "contact",
      targetId: id,
      clientId: contact.clientId,
      details: { fields: Object.keys(body), stage: body.stage, sentiment: body.sentiment },
    });
    return { contact: (await q.getContact(tx, { id }))!, facts: await q.listActiveFacts(tx, { contactId: id }) };
  });
}

/** Every version of every fact of a contact (optionally one key), newest first per key. */
export async function getFactHistory(caller: Caller, id: string, key?: string) {
  return asCaller(caller, async (tx) => {
    await requireVisibleContact(tx, id);
    return { facts: await q.listFactHistory(tx, { contactId: id, key }) };
  });
}

/**
 * A direct fact write by the memory manager (manager agents, HQ admins). The same rules as an
 * approval: PII and locked constants refused, confidence ≥ 0.7, and a current fact with higher
 * confidence is not overwritten (409: send a higher confidence to replace it).
 */
export async function putFact(caller: Caller, id: string, keyParam: string | undefined, body: z.infer<typeof putFactBody>) {
  const parsedKey = factKey.safeParse(keyParam ?? "");
  if (!parsedKey.success) {
    const { message, code } = parsedKey.error.issues[0]!;
    throw new ApiError("validation_failed", `key: ${message}`, [{ path: "key", message, code }]);
  }
  const key = parsedKey.data;
  const outcome = await asCaller(caller, async (tx): Promise<Refusal | { fact: q.FactRow; replaced: q.FactRow | null }> => {
    const contact = await requireVisibleContact(tx, id);
    requireNotOptedOut(contact);
    const ctx = await loadValidationContext(tx, { clientId: contact.clientId, contactId: id, key });
    const verdict = validateSuggestion({ key, value: body.value, confidence: body.confidence }, ctx);
    if (verdict.refusal) {
      await recordAudit(tx, {
        action: "fact.refused",
        targetType: "contact",
        targetId: id,
        clientId: contact.clientId,
        details: refusalDetails(key, body.confidence, verdict),
      });
      return { refused: verdict };
    }
    const result = await writeFactResolvingConflict(tx, { contactId: id, key, value: body.value, confidence: body.confidence, sourceSuggestionId: null });
    if (result.outcome === "superseded") {
      throw new ApiError(
        "conflict",
        `The current "${key}" fact has higher confidence (${result.fact.confidence}); send a confidence of at least that to replace it`,
        { current: { id: result.fact.id, confidence: result.fact.confidence } },
      );
    }
    await recordAudit(tx, {
      action: "fact.write",
      targetType: "contact",
      targetId: id,
      clientId: contact.clientId,
      details: { key, confidence: body.confidence, factId: result.fact.id, replacedFactId: result.replaced?.id ?? null },
    });
    return { fact: result.fact, replaced: result.replaced };
  });
  if ("refused" in outcome) throw refusalError(outcome.refused);
  return outcome;
}

/** Opt-out erasure: see mhq.erase_contact (supabase/schemas/functions/mhq.erase_contact.sql). */
export async function optOutContact(caller: Caller, id: string) {
  const result = await asCaller(caller, async (tx) => {
    const contact = await requireVisibleContact(tx, id);
    const erased = await q.eraseContact(tx, { id });
    if (!erased.alreadyOptedOut) {
      // counts only: the audit record of an erasure must not itself hold what was erased
      const action = erased.finishedForHq ? "contact.hq_erasure" : "contact.opt_out";
      await recordAudit(tx, { action, targetType: "contact", targetId: id, clientId: contact.clientId, details: { erased } });
    }
    return { contact: (await q.getContact(tx, { id }))!, erased };
  });
  // redacted memories take the erased words out of the search statistics: the log of their
  // deltas is folded in a moment later, so the words do not outlive the texts
  noteSearchWrite();
  return result;
}

/** HQ keeps its rows as they are: what a field manager's opt-out kept for HQ to erase is dropped. */
export async function keepHqMentions(caller: Caller, id: string) {
  return asCaller(caller, async (tx) => {
    const contact = await requireVisibleContact(tx, id);
    if (!(await q.keepHqMentions(tx, { id }))) throw notFound("HQ erasure of this contact");
    // counts only, as for the erasure itself
    await recordAudit(tx, { action: "contact.hq_mentions_kept", targetType: "contact", targetId: id, clientId: contact.clientId, details: { hqRows: contact.hqErasure?.hqRows ?? null } });
    return { contact: (await q.getContact(tx, { id }))! };
  });
}

export async function getFactKeys(caller: Caller, clientId: string) {
  return asCaller(caller, async (tx) => {
    const rows = await tx.query("select 1 from clients where id = $1", [clientId]);
    if (!rows.length) throw notFound("Client");
    return { clientId, keys: await q.getFactKeys(tx, { clientId }) };
  });
}

/** The client's business-relevance allow-list (HQ admins). An empty list means "no list". */
export async function setFactKeys(caller: Caller, clientId: string, body: z.infer<typeof factKeysBody>) {
  const keys = [...new Set(body.keys)].sort();
  return asCaller(caller, async (tx) => {
    const before = await q.getFactKeys(tx, { clientId });
    const saved = await q.setFactKeys(tx, { clientId, keys });
    if (!saved) throw notFound("Client");
    await recordAudit(tx, {
      action: "client.fact_keys",
      targetType: "client",
      targetId: clientId,
      clientId,
      details: { added: keys.filter((k) => !before.includes(k)), removed: before.filter((k) => !keys.includes(k)) },
    });
    return { clientId, keys: saved };
  });
}

/** What an audit entry of a refusal may say: never the value, and not the key when the key itself is sensitive. */
export function refusalDetails(key: string, confidence: number, verdict: Refusal["refused"]) {
  const keyIsSensitive = verdict.pii.some((f) => f.field === "key");
  return {
    code: verdict.refusal,
    key: keyIsSensitive ? null : key,
    confidence,
    findings: verdict.pii.map((f) => ({ kind: f.kind, field: f.field, ...(f.detail ? { issuer: f.detail } : {}) })),
    lockedConstants: verdict.lockedConstants,
  };
}
