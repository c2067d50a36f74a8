import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { admin, as } from "../helpers/api";
import { createAgent, createClient, type TestAgent } from "../helpers/fixtures";
import type { AgentCaller } from "@/lib/auth/caller";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";

// An interaction may name only a contact of its own client: a foreign contact answers exactly as a
// missing one, for every caller, and the database refuses the pairing on its own.

const message = (over: Record<string, unknown> = {}) => ({
  channel: "sms",
  direction: "inbound",
  content: "Can someone come out Tuesday?",
  ...over,
});

async function contactOf(clientId: string) {
  const res = await admin.post("/api/v1/contacts", { name: `Contact ${randomUUID().slice(0, 6)}`, clientId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.contact.id as string;
}

function callerOf(agent: TestAgent, kind: "internal" | "field", role: AgentCaller["role"]): AgentCaller {
  return { type: "agent", agentId: agent.id, name: agent.name, kind, role, clientId: agent.clientId, kbAccess: "read" };
}

const insertAs = async (caller: AgentCaller, clientId: string | null, contactId: string) =>
  withClaims(await getDatabase(), claimsFor(caller), (tx) =>
    tx.query(
      `insert into interactions (agent_id, client_id, contact_id, channel, direction, content)
       values ($1, $2, $3, 'sms', 'inbound', 'planted')`,
      [caller.agentId, clientId, contactId],
    ),
  );

describe("interactions with a foreign contact", () => {
  it("answers a field agent's foreign contact exactly as a missing one", async () => {
    const a = await createClient();
    const b = await createClient();
    const santos = await createAgent({ kind: "field", role: "orchestrator", clientId: a.id });
    const foreign = await contactOf(b.id);
    const own = await contactOf(a.id);

    const missing = await as(santos.key).post("/api/v1/interactions", message({ contactId: randomUUID() }));
    const other = await as(santos.key).post("/api/v1/interactions", message({ contactId: foreign }));
    expect(missing.status).toBe(404);
    expect(other.status).toBe(404);
    expect(other.body).toEqual(missing.body);
    expect(missing.body.error.code).toBe("not_found");

    const ok = await as(santos.key).post("/api/v1/interactions", message({ contactId: own }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.interaction).toMatchObject({ clientId: a.id, contactId: own });
    const [n] = await (await getDatabase()).query<{ n: number }>(
      "select count(*)::int as n from interactions where contact_id = $1",
      [foreign],
    );
    expect(n!.n).toBe(0);
  });

  it("answers an internal caller pairing client B with client A's contact as missing, and files a bare contact under its client", async () => {
    const a = await createClient();
    const b = await createClient();
    const ivy = await createAgent({ kind: "internal", role: "orchestrator" });
    const contactA = await contactOf(a.id);

    const missing = await as(ivy.key).post("/api/v1/interactions", message({ contactId: randomUUID(), clientId: b.id }));
    const paired = await as(ivy.key).post("/api/v1/interactions", message({ contactId: contactA, clientId: b.id }));
    expect(paired.status).toBe(404);
    expect(paired.body).toEqual(missing.body);

    const bare = await as(ivy.key).post("/api/v1/interactions", message({ contactId: contactA }));
    expect(bare.status, JSON.stringify(bare.body)).toBe(201);
    expect(bare.body.interaction.clientId).toBe(a.id);
  });

  it("is refused by the database too, for field and internal agents", async () => {
    const a = await createClient();
    const b = await createClient();
    const field = await createAgent({ kind: "field", role: "orchestrator", clientId: a.id });
    const internal = await createAgent({ kind: "internal", role: "orchestrator" });
    const contactA = await contactOf(a.id);
    const contactB = await contactOf(b.id);
    const F = callerOf(field, "field", "orchestrator");
    const I = callerOf(internal, "internal", "orchestrator");

    // controls: the same claims may file a contact under its own client
    await expect(insertAs(F, a.id, contactA)).resolves.toBeDefined();
    await expect(insertAs(I, b.id, contactB)).resolves.toBeDefined();

    await expect(insertAs(F, a.id, contactB)).rejects.toMatchObject({ code: "42501" });
    await expect(insertAs(I, b.id, contactA)).rejects.toMatchObject({ code: "42501" });
    await expect(insertAs(I, null, contactA)).rejects.toMatchObject({ code: "42501" });
  });
});
