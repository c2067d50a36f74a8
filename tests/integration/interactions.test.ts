import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { admin, as } from "../helpers/api";
import { createAgent, createClient } from "../helpers/fixtures";
import { getDatabase } from "@/lib/db";
import { LOCAL_DIMENSIONS } from "@/lib/embeddings/local";

const message = (over: Record<string, unknown> = {}) => ({
  channel: "sms",
  direction: "inbound",
  speaker: "Dana (customer)",
  content: "Our water heater is leaking again, can someone come out Tuesday?",
  ...over,
});

describe("interactions (recall memory)", () => {
  it("records a message with its client, contact, embedding and full-text column", async () => {
    const client = await createClient();
    const santos = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    const contact = await admin.post("/api/v1/contacts", { name: "Dana", clientId: client.id });
    expect(contact.status, JSON.stringify(contact.body)).toBe(201);
    const contactId = contact.body.contact.id;
    const res = await as(santos.key).post("/api/v1/interactions", message({ contactId, occurredAt: "2026-02-16T09:30:00Z" }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.interaction).toMatchObject({
      clientId: client.id,
      agentId: santos.id,
      contactId,
      channel: "sms",
      direction: "inbound",
      speaker: "Dana (customer)",
      embedded: true,
    });
    const [row] = await (await getDatabase()).query<{ dims: number; hit: boolean; occurred: Date }>(
      `select vector_dims(embedding) as dims, fts @@ websearch_to_tsquery('english', 'leaking heater') as hit, occurred_at as occurred
         from interactions where id = $1`,
      [res.body.interaction.id],
    );
    expect(row).toMatchObject({ dims: LOCAL_DIMENSIONS, hit: true });
    expect(new Date(row!.occurred).toISOString()).toBe("2026-02-16T09:30:00.000Z");
  });

  it("keeps field agents to their own client, for writes and reads", async () => {
    const sunrise = await createClient();
    const other = await createClient();
    const santos = await createAgent({ kind: "field", role: "orchestrator", clientId: sunrise.id });
    const rival = await createAgent({ kind: "field", role: "manager", clientId: other.id });
    expect((await as(santos.key).post("/api/v1/interactions", message({ clientId: other.id }))).status).toBe(403);
    await as(santos.key).post("/api/v1/interactions", message({ content: "Sunrise: drain cleaning booked" }));
    await as(rival.key).post("/api/v1/interactions", message({ content: "Other client: roof inspection" }));

    const mine = await as(santos.key).get("/api/v1/interactions");
    expect(mine.status).toBe(200);
    expect(mine.body.interactions.map((i: any) => i.content)).toEqual(["Sunrise: drain cleaning booked"]);
    // asking for the other client explicitly finds nothing
    expect((await as(santos.key).get(`/api/v1/interactions?clientId=${other.id}`)).body.interactions).toEqual([]);
  });

  it("lets specialists write but not read, managers read all, HQ read but not write, isolated agents nothing", async () => {
    const client = await createClient();
    const sam = await createAgent({ kind: "internal", role: "specialist" });
    const sybil = await createAgent({ kind: "internal", role: "manager" });
    const isolated = await createAgent({ kind: "internal", role: "isolated" });
    const written = await as(sam.key).post("/api/v1/interactions", message({ clientId: client.id, channel: "email", direction: "outbound", content: "Sent the quote for the tankless heater" }));
    expect(written.status).toBe(201);
    expect(written.body.interaction.clientId).toBe(client.id);
    expect((await as(sam.key).get("/api/v1/interactions")).status).toBe(403);

    const all = await as(sybil.key).get(`/api/v1/interactions?agentId=${sam.id}`);
    expect(all.body.interactions).toHaveLength(1);
    expect((await as(sybil.key).get("/api/v1/interactions?q=tankless")).body.interactions).toHaveLength(1);
    expect((await as(sybil.key).get("/api/v1/interactions?q=tankless%20gazebo")).body.interactions).toHaveLength(0);

    expect((await admin.get(`/api/v1/interactions?clientId=${client.id}`)).body.interactions).toHaveLength(1);
    expect((await admin.post("/api/v1/interactions", message())).status).toBe(403);
    expect((await as(isolated.key).post("/api/v1/interactions", message())).status).toBe(403);
    expect((await as(isolated.key).get("/api/v1/interactions")).status).toBe(403);
  });

  it("validates the body", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const before = (await as(agent.key).get("/api/v1/interactions?limit=200")).body.interactions.length;
    expect((await as(agent.key).post("/api/v1/interactions", message({ direction: "sideways" }))).status).toBe(422);
    expect((await as(agent.key).post("/api/v1/interactions", message({ content: "   " }))).status).toBe(422);
    expect((await as(agent.key).post("/api/v1/interactions", message({ mood: "happy" }))).status).toBe(422);
    expect((await as(agent.key).post("/api/v1/interactions", message({ clientId: randomUUID() }))).status).toBe(422);
    expect((await as(agent.key).post("/api/v1/interactions", message({ contactId: randomUUID() }))).status).toBe(404);
    expect((await as(agent.key).get("/api/v1/interactions?limit=200")).body.interactions).toHaveLength(before);
  });
});
