import { describe, expect, it } from "vitest";
import { createMemoryHq, MemoryHqError } from "@/lib/sdk";
import { handlerFetch } from "../helpers/api";
import { createAgent } from "../helpers/fixtures";
import { TEST_ADMIN_KEY } from "../helpers/setup-env";

const BASE = "http://127.0.0.1:3170";

describe("the TypeScript client (lib/sdk)", () => {
  it("writes a memory, keeps the scratchpad and retrieves the memory, typed by the contracts", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const hq = createMemoryHq({ baseUrl: BASE, key: agent.key, fetch: handlerFetch });

    const me = await hq.agents.get({ params: { agentId: "me" } });
    expect(me.agent).toMatchObject({ id: agent.id, role: "orchestrator" });
    expect(typeof me.agent.createdAt).toBe("string");

    const { memory } = await hq.memories.write({
      params: { agentId: "me" },
      body: { tier: "core", category: "client", title: "Harbor Vets closes at noon on Fridays", confidence: 0.9 },
    });
    expect(memory.agentId).toBe(agent.id);

    const pad = await hq.documents.get({ params: { agentId: "me", type: "working" } });
    const saved = await hq.documents.put({ params: { agentId: "me", type: "working" }, body: { content: "Calling Harbor Vets", expectedVersion: pad.version } });
    expect(saved.version).toBe(pad.version + 1);

    const found = await hq.retrieval.retrieve({ body: { message: "When does Harbor Vets close on Fridays?", scopes: ["memories"] } });
    expect(found.items.map((i) => i.id)).toContain(memory.id);

    // @ts-expect-error confidence is a number: the contract types the body
    await expect(hq.memories.write({ params: { agentId: "me" }, body: { tier: "core", category: "client", title: "x", confidence: "high" } })).rejects.toBeInstanceOf(MemoryHqError);
  });

  it("throws the API's error code, message and status", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const hq = createMemoryHq({ baseUrl: BASE, key: agent.key, fetch: handlerFetch });
    const pad = await hq.documents.get({ params: { agentId: "me", type: "working" } });
    await hq.documents.put({ params: { agentId: "me", type: "working" }, body: { content: "one", expectedVersion: pad.version } });
    const stale = await hq.documents.put({ params: { agentId: "me", type: "working" }, body: { content: "two", expectedVersion: pad.version } }).catch((e) => e);
    expect(stale).toBeInstanceOf(MemoryHqError);
    expect(stale).toMatchObject({ status: 409, code: "version_conflict" });

    const forbidden = await hq.agents.create({ body: { name: "Nope", kind: "internal", role: "specialist" } }).catch((e) => e);
    expect(forbidden).toMatchObject({ status: 403, code: "forbidden" });

    const admin = createMemoryHq({ baseUrl: BASE, key: TEST_ADMIN_KEY, fetch: handlerFetch });
    expect((await admin.agents.list()).agents.map((a) => a.id)).toContain(agent.id);
  });
});
