import { describe, expect, it } from "vitest";
import { admin } from "../helpers/api";
import { createAgent } from "../helpers/fixtures";
import type { HqCaller } from "@/lib/auth/caller";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";

// Isolated agents have no memory at all: not even an HQ admin can file a memory or a document
// under one, through the API or directly in the database.

const hqAdmin: HqCaller = { type: "hq", userId: null, name: "Admin key", email: null, role: "admin" };
const memory = { tier: "learning", category: "insight", title: "Deploys on Fridays break", confidence: 0.8 };

describe("isolated agents hold no memory", () => {
  it("refuses an HQ admin's memory or document for an isolated agent (API)", async () => {
    const isolated = await createAgent({ kind: "internal", role: "isolated" });
    const normal = await createAgent({ kind: "internal", role: "specialist" });
    // control: the same writes succeed for an agent with memory
    expect((await admin.post(`/api/v1/agents/${normal.id}/memories`, memory)).status).toBe(201);
    expect((await admin.put(`/api/v1/agents/${normal.id}/documents/soul`, { content: "calm" })).status).toBe(200);

    const m = await admin.post(`/api/v1/agents/${isolated.id}/memories`, memory);
    expect(m.status, JSON.stringify(m.body)).toBe(403);
    const d = await admin.put(`/api/v1/agents/${isolated.id}/documents/soul`, { content: "calm" });
    expect(d.status, JSON.stringify(d.body)).toBe(403);
    const db = await getDatabase();
    const [n] = await db.query<{ n: number }>(
      `select (select count(*) from memories where agent_id = $1) + (select count(*) from agent_documents where agent_id = $1) as n`,
      [isolated.id],
    );
    expect(Number(n!.n)).toBe(0);
  });

  it("is refused by the database for an HQ admin's claims", async () => {
    const isolated = await createAgent({ kind: "internal", role: "isolated" });
    const normal = await createAgent({ kind: "internal", role: "specialist" });
    const insertMemory = async (agentId: string) =>
      withClaims(await getDatabase(), claimsFor(hqAdmin), (tx) =>
        tx.query(
          `insert into memories (agent_id, scope, tier, category, title, confidence)
           values ($1, 'agent', 'learning', 'insight', 'planted', 0.9)`,
          [agentId],
        ),
      );
    const insertDocument = async (agentId: string) =>
      withClaims(await getDatabase(), claimsFor(hqAdmin), (tx) =>
        tx.query(`insert into agent_documents (agent_id, type, content) values ($1, 'working', 'planted')`, [agentId]),
      );
    await expect(insertMemory(normal.id)).resolves.toBeDefined();
    await expect(insertDocument(normal.id)).resolves.toBeDefined();
    await expect(insertMemory(isolated.id)).rejects.toMatchObject({ code: "42501" });
    await expect(insertDocument(isolated.id)).rejects.toMatchObject({ code: "42501" });
  });
});
