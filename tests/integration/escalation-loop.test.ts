// The escalation loop closes: near-duplicates of a resolved escalation are found and resolved with
// the same fix in one step (all or nothing, each audited), the list filters by severity, client and
// entry, and the published entry leads back to the escalations it fixed.
import { beforeAll, describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { api, as } from "../helpers/api";
import { createAgent, createClient, createHqUser, rareWord, type TestAgent, type TestHqUser } from "../helpers/fixtures";

let sunrise: { id: string };
let northwind: { id: string };
let santos: TestAgent;
let nora: TestAgent;
let curator: TestHqUser;
let viewer: TestHqUser;
const tag = rareWord();

const GAS = [
  "Caller reports gas smell in the basement near the boiler",
  "Customer reports a gas smell near the boiler in the basement",
  "Gas smell reported in the basement by the boiler, caller worried",
  "Caller says there is a smell of gas near the boiler",
  "Customer reports gas smell near boiler, wants advice",
  "Caller reports strong gas smell by the boiler",
  "Gas smell near the boiler reported by a customer",
];

interface Raised {
  id: string;
  clientId: string | null;
  question: string;
}
let gas: Raised[] = [];
let invoice: Raised;

const raise = async (agent: TestAgent, question: string, severity = "critical"): Promise<Raised> => {
  const res = await as(agent.key).post("/api/v1/escalations", { question: `${question} (${tag})`, severity });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.escalation;
};

beforeAll(async () => {
  sunrise = await createClient();
  northwind = await createClient();
  santos = await createAgent({ kind: "field", role: "specialist", clientId: sunrise.id });
  nora = await createAgent({ kind: "field", role: "specialist", clientId: northwind.id });
  curator = await createHqUser("curator");
  viewer = await createHqUser("viewer");
  // four from one client, three from another, and one unrelated
  gas = [];
  for (const [i, question] of GAS.entries()) gas.push(await raise(i < 4 ? santos : nora, question));
  invoice = await raise(santos, "Invoice shows the wrong VAT rate for a repair", "low");
});

const asCurator = (method: string, path: string, body?: unknown) => api(method, path, { cookie: curator.cookie, body });

describe("GET /escalations/{id}/similar", () => {
  it("finds the open near-duplicates, most alike first, and not an unrelated one", async () => {
    const res = await asCurator("GET", `/api/v1/escalations/${gas[0]!.id}/similar`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ids = res.body.similar.map((s: { escalation: { id: string } }) => s.escalation.id);
    expect(ids).not.toContain(gas[0]!.id);
    expect(ids).not.toContain(invoice.id);
    expect(ids.length).toBeGreaterThanOrEqual(5);
    const scores = res.body.similar.map((s: { similarity: number }) => s.similarity);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("a field agent sees its own client's only, and another client's escalation not at all", async () => {
    const mine = await as(santos.key).get(`/api/v1/escalations/${gas[0]!.id}/similar`);
    expect(mine.status).toBe(200);
    for (const s of mine.body.similar) expect(s.escalation.clientId).toBe(sunrise.id);
    expect((await as(nora.key).get(`/api/v1/escalations/${gas[0]!.id}/similar`)).status).toBe(404);
    expect((await as(nora.key).get(`/api/v1/escalations/${gas[0]!.id}`)).status).toBe(404);
    expect((await as(santos.key).get(`/api/v1/escalations/${gas[0]!.id}`)).body.escalation.id).toBe(gas[0]!.id);
  });
});

describe("GET /escalations filters", () => {
  it("by severity and client (or HQ's own), with counts that follow them", async () => {
    const critical = await asCurator("GET", `/api/v1/escalations?status=open&severity=critical&clientId=${northwind.id}`);
    expect(critical.status).toBe(200);
    expect(critical.body.escalations.map((e: { id: string }) => e.id).sort()).toEqual(gas.slice(4).map((g) => g.id).sort());
    expect(critical.body.counts.open).toBe(3);
    const low = await asCurator("GET", `/api/v1/escalations?severity=low&clientId=${sunrise.id}`);
    expect(low.body.escalations.map((e: { id: string }) => e.id)).toEqual([invoice.id]);
    const hq = await asCurator("GET", `/api/v1/escalations?clientId=hq&severity=critical`);
    for (const e of hq.body.escalations) expect(e.clientId).toBeNull();
    expect((await asCurator("GET", `/api/v1/escalations?severity=urgent`)).status).toBe(422);
  });
});

describe("POST /escalations/{id}/resolve with alsoResolve", () => {
  it("is all or nothing: one already resolved among them resolves none and publishes nothing", async () => {
    const single = await asCurator("POST", `/api/v1/escalations/${invoice.id}/resolve`, { resolution: "Corrected the VAT rate on the invoice template.", knowledge: false });
    expect(single.status).toBe(200);
    const res = await asCurator("POST", `/api/v1/escalations/${gas[0]!.id}/resolve`, {
      resolution: "Told the caller to leave the building and call the gas emergency line.",
      alsoResolve: [gas[1]!.id, invoice.id],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    const still = await asCurator("GET", `/api/v1/escalations/${gas[1]!.id}`);
    expect(still.body.escalation.status).toBe("open");
    expect((await asCurator("GET", `/api/v1/escalations/${gas[0]!.id}`)).body.escalation.status).toBe("open");
    const [row] = await (await getDatabase()).query<{ n: number }>(`select count(*)::int as n from knowledge_entries where title like $1`, [`%${tag}%`]);
    expect(row!.n).toBe(0);
  });

  it("refuses an id it cannot see, another client's escalation without a published fix, and callers who may not resolve", async () => {
    const unknown = await asCurator("POST", `/api/v1/escalations/${gas[0]!.id}/resolve`, { resolution: "x", alsoResolve: ["00000000-0000-4000-8000-000000000000"] });
    expect(unknown.status).toBe(422);
    const unpublished = await asCurator("POST", `/api/v1/escalations/${gas[0]!.id}/resolve`, { resolution: "x", knowledge: false, alsoResolve: [gas[5]!.id] });
    expect(unpublished.status, JSON.stringify(unpublished.body)).toBe(422);
    const body = { resolution: "x", alsoResolve: [gas[1]!.id] };
    expect((await api("POST", `/api/v1/escalations/${gas[0]!.id}/resolve`, { cookie: viewer.cookie, body })).status).toBe(403);
    expect((await as(santos.key).post(`/api/v1/escalations/${gas[0]!.id}/resolve`, body)).status).toBe(403);
    for (const g of gas) expect((await asCurator("GET", `/api/v1/escalations/${g.id}`)).body.escalation.status).toBe("open");
  });

  it("resolves the near-duplicates with the same fix in one step: one entry, each linked and audited; another client's get the published fix", async () => {
    const fix = "Leave the building at once, do not use switches, and call the gas emergency line from outside.";
    const res = await asCurator("POST", `/api/v1/escalations/${gas[0]!.id}/resolve`, {
      resolution: "Told the caller at the Elm Street job to leave and call the gas emergency line.",
      knowledge: { title: `Gas smell near a boiler (${tag})`, content: `**Problem:** a caller smells gas.\n\n**Fix:** ${fix}`, category: "escalation", tags: ["gas"] },
      alsoResolve: gas.slice(1).map((g) => g.id),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const entryId = res.body.knowledge.id;
    expect(res.body.alsoResolved).toHaveLength(6);
    for (const e of res.body.alsoResolved) {
      expect(e).toMatchObject({ status: "resolved", knowledgeEntryId: entryId });
      // the first client's escalations get the resolution as typed; another client's the fix as the
      // entry publishes it (text every client's agents can read there already)
      if (e.clientId === sunrise.id) expect(e.resolution).toBe("Told the caller at the Elm Street job to leave and call the gas emergency line.");
      else {
        expect(e.resolution.startsWith(fix)).toBe(true);
        for (const paragraph of e.resolution.split("\n\n")) expect(res.body.knowledge.content).toContain(paragraph);
        expect(e.resolution).not.toContain("**Fix:**");
      }
    }
    // the entry leads back to every escalation it fixed; the list filters by it
    const linked = await asCurator("GET", `/api/v1/escalations?knowledgeEntryId=${entryId}`);
    expect(linked.body.escalations.map((e: { id: string }) => e.id).sort()).toEqual(gas.map((g) => g.id).sort());
    // a field agent sees its own client's of them
    const own = await as(nora.key).get(`/api/v1/escalations?knowledgeEntryId=${entryId}`);
    expect(own.body.escalations.map((e: { clientId: string }) => e.clientId)).toEqual([northwind.id, northwind.id, northwind.id]);
    // each resolved escalation has its own audit entry
    const audit = await (await getDatabase()).query<{ target_id: string; details: { resolvedWith?: string } }>(
      `select target_id, details from audit_log where action = 'escalation.resolve' and target_id = any($1::text[])`,
      [gas.map((g) => g.id)],
    );
    expect(audit).toHaveLength(7);
    expect(audit.filter((a) => a.details.resolvedWith === gas[0]!.id)).toHaveLength(6);
    // nothing similar is left open
    expect((await asCurator("GET", `/api/v1/escalations/${gas[0]!.id}/similar`)).body.similar).toEqual([]);
  });
});
