// Conversations as the console lists them: threads titled by their contact, filtered by contact and
// channel on the server, paged by a keyset cursor; a caller who may not read a client's turns does
// not get its conversations either.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { admin, as } from "../helpers/api";
import { createAgent, createClient, type TestAgent } from "../helpers/fixtures";

let client: { id: string };
let other: { id: string };
let orchestrator: TestAgent;
let field: TestAgent;
let otherManager: TestAgent;
let dana: string;
let lee: string;

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 26, 20, 0) + minutes * 60_000).toISOString();

beforeAll(async () => {
  client = await createClient();
  other = await createClient();
  orchestrator = await createAgent({ kind: "internal", role: "orchestrator" });
  field = await createAgent({ kind: "field", role: "specialist", clientId: client.id });
  otherManager = await createAgent({ kind: "field", role: "manager", clientId: other.id });
  dana = (await admin.post("/api/v1/contacts", { name: "Dana Whitfield", clientId: client.id })).body.contact.id;
  lee = (await admin.post("/api/v1/contacts", { email: "lee@example.com", clientId: client.id })).body.contact.id;
  // a reminder Santos sent Dana by sms (one inferred conversation), a chat thread with Lee, and a
  // call without a contact where the caller named themselves
  const res = await as(orchestrator.key).post("/api/v1/interactions/batch", {
    interactions: [
      { contactId: dana, channel: "sms", direction: "outbound", speaker: "Santos", content: "Reminder: your boiler service is tomorrow at 9.", occurredAt: at(0) },
      { contactId: dana, channel: "sms", direction: "inbound", speaker: "Dana Whitfield", content: "Thanks, see you then.", occurredAt: at(49) },
      { contactId: lee, channel: "chat", direction: "inbound", speaker: "Lee", content: "Can I move my booking?", occurredAt: at(60), conversationId: "chat-lee-1" },
      { contactId: lee, channel: "chat", direction: "outbound", speaker: "Santos", content: "Yes, which day suits you?", occurredAt: at(61), conversationId: "chat-lee-1" },
      { channel: "call", direction: "inbound", speaker: "Pat Caller", content: "I smell gas in the basement.", occurredAt: at(90), clientId: client.id },
    ],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  // another client's conversation the first client's callers must not see
  const theirs = await as(otherManager.key).post("/api/v1/interactions", { channel: "sms", direction: "inbound", speaker: "Someone", content: "Other client's message" });
  expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
});

describe("GET /conversations", () => {
  it("lists an agent's conversations newest first, each titled by its contact with its span and last turn", async () => {
    const res = await admin.get(`/api/v1/conversations?agentId=${orchestrator.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = res.body.conversations;
    expect(list.map((c: { turns: number }) => c.turns)).toEqual([1, 2, 2]);
    const [call, chat, sms] = list;
    expect(call).toMatchObject({ contactId: null, contactName: null, inboundSpeaker: "Pat Caller", channels: ["call"], agentName: orchestrator.name });
    expect(chat).toMatchObject({ conversation: "chat-lee-1", conversationId: "chat-lee-1", contactId: lee, contactName: "lee@example.com", channels: ["chat"] });
    expect(sms).toMatchObject({ contactId: dana, contactName: "Dana Whitfield", conversationId: null, inboundSpeaker: "Dana Whitfield", turns: 2 });
    expect(sms.lastTurn).toEqual({ direction: "inbound", speaker: "Dana Whitfield", content: "Thanks, see you then." });
    expect(Date.parse(sms.startedAt)).toBe(Date.parse(at(0)));
    expect(Date.parse(sms.endedAt)).toBe(Date.parse(at(49)));
    // the conversation's turns, in order, by its id
    const turns = await admin.get(`/api/v1/interactions?agentId=${orchestrator.id}&conversationId=${encodeURIComponent(sms.conversation)}`);
    expect(turns.body.interactions.map((t: { speaker: string }) => t.speaker)).toEqual(["Santos", "Dana Whitfield"]);
    expect(turns.body.contacts).toEqual([{ id: dana, name: "Dana Whitfield" }]);
  });

  it("filters by contact and by channel on the server, and pages with a cursor", async () => {
    const byContact = await admin.get(`/api/v1/conversations?contactId=${dana}`);
    expect(byContact.body.conversations.map((c: { contactName: string }) => c.contactName)).toEqual(["Dana Whitfield"]);
    const byChannel = await admin.get(`/api/v1/conversations?agentId=${orchestrator.id}&channel=chat`);
    expect(byChannel.body.conversations.map((c: { conversation: string }) => c.conversation)).toEqual(["chat-lee-1"]);
    const turns = await admin.get(`/api/v1/interactions?agentId=${orchestrator.id}&channel=sms`);
    expect(turns.body.interactions.map((t: { channel: string }) => t.channel)).toEqual(["sms", "sms"]);

    const first = await admin.get(`/api/v1/conversations?agentId=${orchestrator.id}&limit=2`);
    expect(first.body.conversations).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await admin.get(`/api/v1/conversations?agentId=${orchestrator.id}&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.conversations.map((c: { contactName: string }) => c.contactName)).toEqual(["Dana Whitfield"]);
    expect(second.body.nextCursor).toBeNull();
    const bad = await admin.get(`/api/v1/conversations?cursor=${Buffer.from("nonsense").toString("base64url")}`);
    expect(bad.status).toBe(422);
  });

  it("answers only what the caller may read: another client's manager sees its own, a specialist nothing", async () => {
    const theirs = await as(otherManager.key).get(`/api/v1/conversations`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.conversations.map((c: { clientId: string }) => c.clientId)).toEqual([other.id]);
    const named = await as(otherManager.key).get(`/api/v1/conversations?contactId=${dana}`);
    expect(named.body.conversations).toEqual([]);
    expect((await as(field.key).get(`/api/v1/conversations`)).status).toBe(403);
    // and the contacts beside a page of turns are only the ones the caller may see
    const search = await as(otherManager.key).get(`/api/v1/interactions?q=${encodeURIComponent("boiler")}`);
    expect(search.body).toMatchObject({ interactions: [], contacts: [] });
  });

  it("an unknown agent or contact is an empty list, not an error", async () => {
    const res = await admin.get(`/api/v1/conversations?agentId=${randomUUID()}`);
    expect(res.body).toEqual({ conversations: [], nextCursor: null });
  });
});
