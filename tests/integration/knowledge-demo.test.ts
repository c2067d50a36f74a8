import { beforeAll, describe, expect, it } from "vitest";
import { admin, as } from "../helpers/api";
import { getDatabase } from "@/lib/db";
import { seedDemoIfEmpty } from "@/lib/demo/seed";
import { demoKnowledge } from "@/lib/demo/knowledge";
import { KNOWLEDGE_CATEGORIES } from "@/lib/knowledge/schemas";

const KB = "/api/v1/knowledge";
let santosKey: string;

const search = async (q: string, extra = "") =>
  (await as(santosKey).get(`${KB}?q=${encodeURIComponent(q)}&limit=5${extra}`)).body.entries as { title: string; content: string; category: string }[];

beforeAll(async () => {
  expect(await seedDemoIfEmpty(await getDatabase())).toBe(true);
  const agents = (await admin.get("/api/v1/agents")).body.agents as { id: string; name: string }[];
  const santos = agents.find((a) => a.name === "Santos")!;
  santosKey = (await admin.post(`/api/v1/agents/${santos.id}/keys`, { label: "demo test" })).body.key;
});

describe("the demo's starter knowledge base", () => {
  it("ships at least 15 entries across every category, embedded, with the locked constants filled in", async () => {
    const list = await admin.get(`${KB}?limit=200`);
    expect(list.body.total).toBe(demoKnowledge().length);
    expect(list.body.total).toBeGreaterThanOrEqual(15);
    const entries = list.body.entries as { category: string; content: string; embedded: boolean; createdBy: string }[];
    expect(new Set(entries.map((e) => e.category))).toEqual(new Set(KNOWLEDGE_CATEGORIES));
    expect(entries.every((e) => e.embedded)).toBe(true);
    expect(entries.some((e) => e.content.includes("{{"))).toBe(false);
    expect(new Set(entries.map((e) => e.createdBy))).toEqual(new Set(["Sam", "Sybil", "Sage"]));
  });

  it("answers a field agent's escalation question with the severity levels and the escalation number", async () => {
    const hits = await search("a customer smells gas, is this urgent? should I escalate");
    expect(hits.slice(0, 3).map((h) => h.title)).toContain("Escalation severity levels");
    const severity = hits.find((h) => h.title === "Escalation severity levels")!;
    expect(severity.content).toContain("(863) 337-3705");
    expect(severity.category).toBe("escalation");
  });

  it("finds the API procedure and respects a category filter", async () => {
    expect((await search("how do I authenticate to the API with my key"))[0]!.title).toBe("Using the Memory HQ API");
    const templates = await search("onboarding a new client", "&category=template");
    expect(templates.length).toBeGreaterThan(0);
    expect(templates.every((t) => t.category === "template")).toBe(true);
    expect(templates.map((t) => t.title)).toContain("Client onboarding checklist");
  });

  it("shows a version history on the revised entry", async () => {
    const severity = (await search("Escalation severity levels")).find((h) => h.title === "Escalation severity levels") as unknown as { id: string };
    const versions = await admin.get(`${KB}/${severity.id}/versions`);
    expect(versions.body.versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    expect(versions.body.versions[1].content).toContain("call 911");
    expect(versions.body.versions[0].content).not.toContain("call 911");
  });
});
