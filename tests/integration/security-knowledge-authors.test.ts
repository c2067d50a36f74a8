import { describe, expect, it } from "vitest";
import { admin, as } from "../helpers/api";
import { createAgent, createClient } from "../helpers/fixtures";

// Internal agents' names must not reach field agents through the knowledge base: a field agent sees
// a neutral author; internal agents and HQ still see who wrote what.

const KB = "/api/v1/knowledge";

describe("knowledge authors as field agents see them", () => {
  it("shows field agents 'HQ' for entries and versions written by an internal agent; others see the name", async () => {
    const client = await createClient();
    const writer = await createAgent({ name: "Quill the Internal Writer", kind: "internal", role: "specialist", kbAccess: "write" });
    const field = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    const reader = await createAgent({ kind: "internal", role: "orchestrator" });

    const created = await as(writer.key).post(KB, {
      title: "Gutter cleaning season",
      content: "Gutter cleaning is booked from October to December.",
      category: "procedure",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.entry.id;
    const edited = await as(writer.key).patch(`${KB}/${id}`, { content: "Gutter cleaning is booked from September to December.", expectedVersion: 1 });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);

    const views = {
      get: await as(field.key).get(`${KB}/${id}`),
      list: await as(field.key).get(`${KB}?limit=100`),
      search: await as(field.key).get(`${KB}?q=${encodeURIComponent("gutter cleaning")}`),
      versions: await as(field.key).get(`${KB}/${id}/versions`),
    };
    for (const [name, res] of Object.entries(views)) {
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(JSON.stringify(res.body), name).not.toContain(writer.name);
    }
    expect(views.get.body.entry).toMatchObject({ createdBy: "HQ", updatedBy: "HQ" });
    const listed = views.list.body.entries.find((e: any) => e.id === id);
    expect(listed).toMatchObject({ createdBy: "HQ", updatedBy: "HQ" });
    expect(views.search.body.entries.find((e: any) => e.id === id)).toMatchObject({ createdBy: "HQ" });
    expect(views.versions.body.versions.map((v: any) => v.editedBy)).toEqual(["HQ", "HQ"]);

    // internal callers and HQ still see the name
    for (const res of [await as(reader.key).get(`${KB}/${id}`), await admin.get(`${KB}/${id}`)]) {
      expect(res.body.entry).toMatchObject({ createdBy: writer.name, updatedBy: writer.name });
    }
    expect((await admin.get(`${KB}/${id}/versions`)).body.versions.map((v: any) => v.editedBy)).toEqual([writer.name, writer.name]);
  });
});
