// The console's jump-to search: agents, contacts, knowledge entries and escalations by name or
// title, each kind under the caller's own permissions and row rules.
import { beforeAll, describe, expect, it } from "vitest";
import { admin, api, as } from "../helpers/api";
import { createAgent, createClient, createHqUser, rareWord, type TestAgent, type TestHqUser } from "../helpers/fixtures";

const word = rareWord();
let mine: { id: string; name: string };
let theirs: { id: string; name: string };
let field: TestAgent;
let isolated: TestAgent;
let viewer: TestHqUser;
let internalAgent: TestAgent;

beforeAll(async () => {
  mine = await createClient(`Acme ${word}`);
  theirs = await createClient(`Other ${word}`);
  field = await createAgent({ name: `Field ${word}`, kind: "field", role: "manager", clientId: mine.id });
  const rival = await createAgent({ name: `Rival ${word}`, kind: "field", role: "manager", clientId: theirs.id });
  isolated = await createAgent({ kind: "internal", role: "isolated" });
  internalAgent = await createAgent({ name: `Deploy ${word}`, kind: "internal", role: "orchestrator" });
  viewer = await createHqUser("viewer");
  for (const [client, name] of [[mine, `Dana ${word}`], [theirs, `Dora ${word}`]] as const) {
    const res = await admin.post("/api/v1/contacts", { name, clientId: client.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  expect((await admin.post("/api/v1/knowledge", { title: `Gas leak ${word} procedure`, content: "Leave the building and call the gas company.", category: "procedure" })).status).toBe(201);
  expect((await as(field.key).post("/api/v1/escalations", { question: `Mine: boiler ${word} leaking`, severity: "high" })).status).toBe(201);
  expect((await as(rival.key).post("/api/v1/escalations", { question: `Theirs: boiler ${word} noisy`, severity: "low" })).status).toBe(201);
});

const names = (body: Record<string, { name?: string; title?: string; question?: string }[]>, kind: string) =>
  body[kind]!.map((r) => r.name ?? r.title ?? r.question);

describe("GET /search", () => {
  it("finds every kind by the words of its name or title, best match first", async () => {
    const res = await admin.get(`/api/v1/search?q=${word}&limit=10`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(names(res.body, "agents")).toEqual(expect.arrayContaining([`Field ${word}`, `Rival ${word}`, `Deploy ${word}`]));
    expect(names(res.body, "contacts")).toEqual([`Dana ${word}`, `Dora ${word}`]);
    expect(names(res.body, "knowledge")).toEqual([`Gas leak ${word} procedure`]);
    expect(names(res.body, "escalations")).toHaveLength(2);
    expect(res.body.notSearched).toEqual([]);
    // every word must appear, in any order; the name that starts with the search comes first
    const two = await admin.get(`/api/v1/search?q=${encodeURIComponent(`procedure gas ${word}`)}`);
    expect(names(two.body, "knowledge")).toEqual([`Gas leak ${word} procedure`]);
    const prefix = await admin.get(`/api/v1/search?q=${encodeURIComponent(`dana ${word}`)}`);
    expect(names(prefix.body, "contacts")).toEqual([`Dana ${word}`]);
  });

  it("an HQ viewer sees what a viewer may: everything to read", async () => {
    const res = await api("GET", `/api/v1/search?q=${word}&limit=10`, { cookie: viewer.cookie });
    expect(res.status).toBe(200);
    expect(names(res.body, "contacts")).toHaveLength(2);
    expect(names(res.body, "escalations")).toHaveLength(2);
  });

  it("a field agent finds its own client's contacts and escalations, never another client's", async () => {
    const res = await as(field.key).get(`/api/v1/search?q=${word}&limit=10`);
    expect(res.status).toBe(200);
    expect(names(res.body, "contacts")).toEqual([`Dana ${word}`]);
    expect(names(res.body, "escalations")).toEqual([`Mine: boiler ${word} leaking`]);
    const other = await as(field.key).get(`/api/v1/search?q=${encodeURIComponent(`Dora ${word}`)}`);
    expect(other.body.contacts).toEqual([]);
  });

  it("an isolated agent's role reads no contacts, knowledge or escalations: not searched, not answered as empty", async () => {
    const res = await as(isolated.key).get(`/api/v1/search?q=${word}`);
    expect(res.status).toBe(200);
    expect(res.body.notSearched).toEqual(["contacts", "knowledge", "escalations"]);
    expect(res.body.contacts).toEqual([]);
    expect(res.body.escalations).toEqual([]);
  });

  it("an internal agent without knowledge write access sees published entries only; LIKE's wildcards are plain text", async () => {
    const res = await as(internalAgent.key).get(`/api/v1/search?q=${encodeURIComponent("%")}`);
    expect(res.status).toBe(200);
    expect(res.body.knowledge).toEqual([]);
    expect((await admin.get("/api/v1/search?q=")).status).toBe(422);
    expect((await api("GET", `/api/v1/search?q=${word}`)).status).toBe(401);
  });
});
