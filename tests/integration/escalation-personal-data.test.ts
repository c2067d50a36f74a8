import { beforeAll, describe, expect, it } from "vitest";
import { POST as mcpPost } from "@/app/api/mcp/route";
import { admin, api, as } from "../helpers/api";
import { createAgent, createClient, createHqUser, rareWord, type TestAgent, type TestHqUser } from "../helpers/fixtures";

// An escalation is one client's; the knowledge entry its resolution publishes is every client's. An
// entry HQ composes from the question carries none of the client's customers' personal data: names,
// the client's own name, addresses, phone numbers, emails are left out or put in general terms, the
// resolver sees that draft first (API, MCP) and can refuse it.

let sunrise: { id: string; name: string };
let fieldA: TestAgent;
let fieldB: TestAgent;
let sam: TestAgent;
let curator: TestHqUser;

const PERSONAL = [/Jane/, /Roe/, /Elm/, /\b4187\b/, /Marcus/, /Webb/, /555[-. ]?201/, /marcus@example\.com/, /4111/];
// the text of an answer: ids, times and numbers left out (a time such as "…T03:52:12Z" or a score
// such as 0.12 holds digits of its own; the house number is one no date of a context can hold)
const carriesNone = (value: unknown) => {
  const text = JSON.stringify(value, (key, v) => (/^id$|Id$|At$/.test(key) || typeof v === "number" ? undefined : v));
  for (const re of [...PERSONAL, new RegExp(sunrise.name)]) expect(text, `${re} in ${text.slice(0, 400)}`).not.toMatch(re);
};

async function mcp(key: string, name: string, args: unknown) {
  const res = await mcpPost(
    new Request("http://127.0.0.1/api/mcp", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
    }),
  );
  const result = (await res.json()).result as { isError?: boolean; content: { text: string }[]; structuredContent?: any };
  return { isError: result.isError ?? false, text: result.content[0]!.text, data: result.structuredContent };
}

beforeAll(async () => {
  sunrise = await createClient(`Sunrise Plumbing ${rareWord()}`);
  const other = await createClient();
  fieldA = await createAgent({ kind: "field", role: "manager", clientId: sunrise.id });
  fieldB = await createAgent({ kind: "field", role: "specialist", clientId: other.id });
  sam = await createAgent({ kind: "internal", role: "specialist", kbAccess: "write" });
  curator = await createHqUser("curator");
  const contact = await admin.post("/api/v1/contacts", { name: "Marcus Webb", clientId: sunrise.id });
  expect(contact.status, JSON.stringify(contact.body)).toBe(201);
});

describe("a knowledge entry composed from an escalation", () => {
  let escalationId: string;
  let draft: any;

  it("is shown to the resolver first, with the personal data left out or generalised", async () => {
    const raised = await as(fieldA.key).post("/api/v1/escalations", {
      question: "customer Jane Roe at 4187 Elm St disputes invoice",
      severity: "medium",
      context: "She says the amount is twice what was quoted",
    });
    expect(raised.status, JSON.stringify(raised.body)).toBe(201);
    escalationId = raised.body.escalation.id;

    const res = await api("POST", `/api/v1/escalations/${escalationId}/draft`, {
      cookie: curator.cookie,
      body: { resolution: "Re-issue the invoice from the signed quote and void the first one." },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    draft = res.body.draft;
    expect(draft).toEqual({
      title: "A customer disputes invoice",
      content: "**Problem:** A customer disputes invoice\n\n**Fix:** Re-issue the invoice from the signed quote and void the first one.",
      category: "escalation",
      tags: ["escalation", "medium"],
    });
    expect(res.body.personalDataRemoved).toEqual([
      { kind: "person_name", from: "question", count: 1 },
      { kind: "street_address", from: "question", count: 1 },
    ]);
    // a preview changes nothing
    expect((await as(fieldA.key).get("/api/v1/escalations?status=open")).body.escalations.map((e: any) => e.id)).toContain(escalationId);
  });

  it("is previewed only by who may resolve", async () => {
    for (const key of [fieldA.key, fieldB.key]) {
      expect((await as(key).post(`/api/v1/escalations/${escalationId}/draft`, {})).status).toBe(403);
    }
    expect((await as(sam.key).post(`/api/v1/escalations/00000000-0000-4000-8000-000000000000/draft`, {})).status).toBe(404);
  });

  it("is published exactly as drafted, and another client's agent never receives the customer's name or address", async () => {
    const res = await as(sam.key).post(`/api/v1/escalations/${escalationId}/resolve`, {
      resolution: "Re-issue the invoice from the signed quote and void the first one.",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.knowledge).toMatchObject({ title: draft.title, content: draft.content, category: "escalation", tags: draft.tags });
    expect(res.body.personalDataRemoved).toEqual([
      { kind: "person_name", from: "question", count: 1 },
      { kind: "street_address", from: "question", count: 1 },
    ]);
    // the escalation itself stays the client's, word for word
    expect(res.body.escalation.question).toBe("customer Jane Roe at 4187 Elm St disputes invoice");

    const elsewhere = await as(fieldB.key).post("/api/v1/escalations", { question: "A customer disputes an invoice", severity: "low" });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.similarKnowledge.map((k: any) => k.id)).toContain(res.body.knowledge.id);
    carriesNone(elsewhere.body);
    carriesNone((await as(fieldB.key).get(`/api/v1/knowledge?q=${encodeURIComponent("customer disputes invoice")}`)).body);
    carriesNone((await as(fieldB.key).post("/api/v1/retrieve", { message: "customer disputes invoice", scopes: ["knowledge"] })).body);
  });

  it("leaves out the client's contacts, its own name, phone numbers, emails and card numbers, over MCP too", async () => {
    const question = `Marcus Webb says the ${sunrise.name} booking link fails; call him on 555-201-3344 or write to marcus@example.com`;
    const raised = await as(fieldA.key).post("/api/v1/escalations", { question, severity: "high" });
    const id = raised.body.escalation.id;
    const resolution = "Sent Webb a fresh link; refunded card 4111 1111 1111 1111 for the failed booking.";

    const preview = await mcp(sam.key, "escalation_draft", { escalationId: id, resolution });
    expect(preview.isError, preview.text).toBe(false);
    carriesNone(preview.data);
    carriesNone(preview.text);
    expect(preview.data.draft.title).toBe("A customer says the client booking link fails; call him or write to the customer");
    expect(preview.data.personalDataRemoved.map((r: any) => `${r.from}:${r.kind}`).sort()).toEqual([
      "question:client_name", "question:email_address", "question:person_name", "question:phone_number",
      "resolution:payment_card", "resolution:person_name",
    ]);

    const resolved = await mcp(sam.key, "escalation_resolve", { escalationId: id, resolution });
    expect(resolved.isError, resolved.text).toBe(false);
    expect(resolved.data.knowledge).toMatchObject({ title: preview.data.draft.title, content: preview.data.draft.content });
    carriesNone(resolved.data.knowledge);
    expect(resolved.text).toMatch(/Left out or generalised: .*a person's name/);
    // the client's own escalation keeps the resolution as it was given
    const own = await as(fieldA.key).get("/api/v1/escalations?status=resolved");
    expect(own.body.escalations.find((e: any) => e.id === id).resolution).toBe(resolution);
    // field agents are not offered the resolver's tools
    expect((await mcp(fieldA.key, "escalation_draft", { escalationId: id })).isError).toBe(true);
  });

  it("can be refused: the resolver publishes nothing, or words the entry themself", async () => {
    const raised = await as(fieldA.key).post("/api/v1/escalations", { question: "Mrs. Roe wants her deposit back", severity: "low" });
    const id = raised.body.escalation.id;
    const preview = await as(sam.key).post(`/api/v1/escalations/${id}/draft`, { resolution: "Deposits are refundable within 14 days." });
    expect(preview.body.draft.title).toBe("A customer wants her deposit back");
    const refused = await as(sam.key).post(`/api/v1/escalations/${id}/resolve`, { resolution: "Deposits are refundable within 14 days.", knowledge: false });
    expect(refused.status).toBe(200);
    expect(refused.body.knowledge).toBeUndefined();
    expect(refused.body.personalDataRemoved).toBeUndefined();
    expect((await as(sam.key).post(`/api/v1/escalations/${id}/draft`, {})).status).toBe(409);
  });

  it("an escalation without personal data is published as asked", async () => {
    const raised = await as(fieldA.key).post("/api/v1/escalations", { question: `The ${rareWord()} booking widget shows a blank page`, severity: "low" });
    const res = await as(sam.key).post(`/api/v1/escalations/${raised.body.escalation.id}/resolve`, { resolution: "Clear the widget cache in Settings." });
    expect(res.body.knowledge.title).toBe(raised.body.escalation.question);
    expect(res.body.knowledge.content).toBe(`**Problem:** ${raised.body.escalation.question}\n\n**Fix:** Clear the widget cache in Settings.`);
    expect(res.body.personalDataRemoved).toEqual([]);
  });
});
