import { describe, expect, it } from "vitest";
import { api, admin, as } from "../helpers/api";
import { createAgent, createClient } from "../helpers/fixtures";
import { getDatabase } from "@/lib/db";

describe("agent keys and authentication", () => {
  it("answers 401 for a missing, malformed or unknown key", async () => {
    expect((await api("GET", "/api/v1/agents/me")).status).toBe(401);
    expect((await api("GET", "/api/v1/agents/me", { headers: { authorization: "Basic abc" } })).status).toBe(401);
    const unknown = await api("GET", "/api/v1/agents/me", { key: "mhq_" + "x".repeat(43) });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
  });

  it("issues mhq_ keys that authenticate as the agent, stores only their hash, and records lastUsedAt", async () => {
    const client = await createClient();
    const santos = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    expect(santos.key).toMatch(/^mhq_[A-Za-z0-9_-]{43}$/);

    const me = await as(santos.key).get("/api/v1/agents/me");
    expect(me.status).toBe(200);
    expect(me.body.agent).toMatchObject({ id: santos.id, kind: "field", clientId: client.id, kbAccess: "read" });

    const db = await getDatabase();
    const stored = await db.query<{ key_hash: string; last_used_at: Date | null }>(
      "select key_hash, last_used_at from agent_keys where agent_id = $1",
      [santos.id],
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]!.key_hash).not.toContain(santos.key.slice(4));
    expect(stored[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0]!.last_used_at).not.toBeNull();

    const keys = await admin.get(`/api/v1/agents/${santos.id}/keys`);
    expect(keys.body.keys[0]).not.toHaveProperty("key");
    expect(keys.body.keys[0].lastUsedAt).not.toBeNull();
  });

  it("refuses a revoked key with 401", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const keys = await admin.get(`/api/v1/agents/${agent.id}/keys`);
    const keyId = keys.body.keys[0].id;
    expect((await as(agent.key).get("/api/v1/agents/me")).status).toBe(200);
    const revoked = await admin.delete(`/api/v1/agents/${agent.id}/keys/${keyId}`);
    expect(revoked.status).toBe(200);
    const refused = await as(agent.key).get("/api/v1/agents/me");
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toBe("This API key was revoked; an HQ admin can issue a new one");
  });

  it("tells the holder of a disabled agent's key that the agent is disabled, and lets it in again once enabled", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    expect((await admin.patch(`/api/v1/agents/${agent.id}`, { disabled: true })).status).toBe(200);
    const refused = await as(agent.key).get("/api/v1/agents/me");
    expect(refused.status).toBe(401);
    expect(refused.body.error).toEqual({ code: "unauthorized", message: `The agent "${agent.name}" is disabled; an HQ admin can enable it` });
    // a key that matches nothing still says only that it is unknown
    const unknown = await as("mhq_" + agent.key.slice(4, 12) + "y".repeat(35)).get("/api/v1/agents/me");
    expect(unknown.body.error.message).toBe("Unknown or revoked API key");
    expect((await admin.patch(`/api/v1/agents/${agent.id}`, { disabled: false })).status).toBe(200);
    expect((await as(agent.key).get("/api/v1/agents/me")).status).toBe(200);
  });

  it("answers 403 when an agent calls an admin route", async () => {
    const agent = await createAgent({ kind: "internal", role: "manager", kbAccess: "write" });
    const create = await as(agent.key).post("/api/v1/agents", { name: "Rogue", kind: "internal", role: "manager" });
    expect(create.status).toBe(403);
    expect(create.body.error.code).toBe("forbidden");
    expect((await as(agent.key).post(`/api/v1/agents/${agent.id}/keys`, {})).status).toBe(403);
    expect((await as(agent.key).put("/api/v1/locked-constants/pricing.starter", { label: "x", value: "$1", category: "pricing" })).status).toBe(403);
    expect((await as(agent.key).get("/api/v1/audit")).status).toBe(403);
  });

  it("validates agent shapes: field agents need a client and never get kbAccess write", async () => {
    const client = await createClient();
    const noClient = await admin.post("/api/v1/agents", { name: "NoClient", kind: "field", role: "specialist" });
    expect(noClient.status).toBe(422);
    const writer = await admin.post("/api/v1/agents", { name: "Writer", kind: "field", role: "specialist", kbAccess: "write", clientId: client.id });
    expect(writer.status).toBe(422);
    expect(writer.body.error.code).toBe("validation_failed");
    const dup = await admin.post("/api/v1/agents", { name: "Dup", kind: "internal", role: "specialist" });
    expect(dup.status).toBe(201);
    expect((await admin.post("/api/v1/agents", { name: "dup", kind: "internal", role: "specialist" })).status).toBe(409);
  });

  it("lets a field agent see its own client's agents but answers 404 for another client's", async () => {
    const a = await createClient();
    const b = await createClient();
    const santos = await createAgent({ kind: "field", role: "orchestrator", clientId: a.id });
    const colleague = await createAgent({ kind: "field", role: "specialist", clientId: a.id });
    const other = await createAgent({ kind: "field", role: "orchestrator", clientId: b.id });
    const internal = await createAgent({ kind: "internal", role: "specialist" });

    expect((await as(santos.key).get(`/api/v1/agents/${colleague.id}`)).status).toBe(200);
    const hidden = await as(santos.key).get(`/api/v1/agents/${other.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe("not_found");
    expect((await as(santos.key).get(`/api/v1/clients/${b.id}`)).status).toBe(404);
    expect((await as(santos.key).get(`/api/v1/clients/${a.id}`)).status).toBe(200);
    const list = await as(santos.key).get("/api/v1/agents");
    const ids = list.body.agents.map((x: { id: string }) => x.id);
    expect(ids).toContain(colleague.id);
    expect(ids).not.toContain(other.id);
    expect(ids).not.toContain(internal.id);

    // internal agents are HQ staff: they see field agents of every client
    expect((await as(internal.key).get(`/api/v1/agents/${other.id}`)).status).toBe(200);
  });

  it("gives isolated agents their identity and nothing else", async () => {
    const iso = await createAgent({ kind: "internal", role: "isolated" });
    expect((await as(iso.key).get("/api/v1/agents/me")).status).toBe(200);
    expect((await as(iso.key).get("/api/v1/locked-constants")).status).toBe(403);
    expect((await as(iso.key).get("/api/v1/clients")).status).toBe(403);
  });

  it("answers 404 for ids that are not UUIDs and 400 for `me` without an agent key", async () => {
    expect((await admin.get("/api/v1/agents/not-a-uuid")).status).toBe(404);
    expect((await admin.get("/api/v1/agents/me")).status).toBe(400);
  });
});
