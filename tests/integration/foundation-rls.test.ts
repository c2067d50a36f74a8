import { beforeAll, describe, expect, it } from "vitest";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { getDatabase } from "@/lib/db";
import type { AgentCaller, HqCaller } from "@/lib/auth/caller";
import { createAgent, createClient, type TestAgent } from "../helpers/fixtures";

// These tests bypass the service layer: they open a transaction as the caller's database role with
// the caller's claims and try the forbidden thing directly. Postgres itself must refuse.

const fieldCaller = (a: TestAgent): AgentCaller => ({
  type: "agent", agentId: a.id, name: a.name, kind: "field", role: "orchestrator", clientId: a.clientId, kbAccess: "read",
});
const viewer: HqCaller = { type: "hq", userId: null, name: "viewer", email: null, role: "viewer" };

let santos: TestAgent;
let otherClientAgent: TestAgent;
let otherClientId: string;

beforeAll(async () => {
  const a = await createClient();
  const b = await createClient();
  otherClientId = b.id;
  santos = await createAgent({ kind: "field", role: "orchestrator", clientId: a.id });
  otherClientAgent = await createAgent({ kind: "field", role: "orchestrator", clientId: b.id });
});

async function asRole<T>(claims: Record<string, unknown>, fn: (q: (sql: string, p?: unknown[]) => Promise<unknown[]>) => Promise<T>) {
  const db = await getDatabase();
  return withClaims(db, claims, (tx) => fn((sql, p) => tx.query(sql, p)));
}

describe("the database refuses what the caller's role may not do", () => {
  it("runs caller transactions as the unprivileged mhq_app role", async () => {
    const rows = (await asRole(claimsFor(fieldCaller(santos)), (q) =>
      q("select current_user as u, (select rolbypassrls from pg_roles where rolname = current_user) as bypass"),
    )) as { u: string; bypass: boolean }[];
    expect(rows[0]).toEqual({ u: "mhq_app", bypass: false });
  });

  it("hides another client's agent and client from a field agent", async () => {
    const claims = claimsFor(fieldCaller(santos));
    expect(await asRole(claims, (q) => q("select id from agents where id = $1", [otherClientAgent.id]))).toHaveLength(0);
    expect(await asRole(claims, (q) => q("select id from clients where id = $1", [otherClientId]))).toHaveLength(0);
    expect(await asRole(claims, (q) => q("select id from agents where id = $1", [santos.id]))).toHaveLength(1);
  });

  it("refuses a field agent's writes to agents, clients and locked constants", async () => {
    const claims = claimsFor(fieldCaller(santos));
    await expect(
      asRole(claims, (q) => q("insert into locked_constants (key, label, value, category) values ('pricing.hack', 'x', '$1', 'pricing')")),
    ).rejects.toMatchObject({ message: expect.stringMatching(/row-level security|permission denied/) });
    await expect(
      asRole(claims, (q) => q("insert into agents (name, kind, role, client_id) values ('Evil', 'field', 'manager', $1)", [santos.clientId])),
    ).rejects.toMatchObject({ message: expect.stringMatching(/row-level security|permission denied/) });
    // an update the policy hides changes nothing
    const updated = await asRole(claims, (q) => q("update agents set role = 'manager' where id = $1 returning id", [santos.id]));
    expect(updated).toHaveLength(0);
    const changed = await asRole(claims, (q) => q("update locked_constants set value = '$1' returning id"));
    expect(changed).toHaveLength(0);
  });

  it("never lets callers read key hashes, password hashes or sessions", async () => {
    const claims = claimsFor(viewer);
    await expect(asRole(claims, (q) => q("select key_hash from agent_keys"))).rejects.toMatchObject({
      message: expect.stringMatching(/permission denied/),
    });
    await expect(asRole(claims, (q) => q("select password_hash from hq_users"))).rejects.toMatchObject({
      message: expect.stringMatching(/permission denied/),
    });
    await expect(asRole(claims, (q) => q("select * from hq_sessions"))).rejects.toMatchObject({
      message: expect.stringMatching(/permission denied/),
    });
    // agents cannot even list key metadata
    expect(await asRole(claimsFor(fieldCaller(santos)), (q) => q("select id from agent_keys"))).toHaveLength(0);
  });

  it("keeps the audit log append-only and readable by HQ only", async () => {
    await expect(
      asRole(claimsFor(viewer), (q) => q("insert into audit_log (actor_type, action) values ('system', 'forged')")),
    ).rejects.toMatchObject({ message: expect.stringMatching(/permission denied/) });
    await expect(asRole(claimsFor(viewer), (q) => q("delete from audit_log"))).rejects.toMatchObject({
      message: expect.stringMatching(/permission denied/),
    });
    expect(await asRole(claimsFor(fieldCaller(santos)), (q) => q("select id from audit_log"))).toHaveLength(0);
    expect((await asRole(claimsFor(viewer), (q) => q("select id from audit_log"))).length).toBeGreaterThan(0);
  });

  it("writes audit entries in the caller's name, not one the caller chooses", async () => {
    await asRole({ ...claimsFor(fieldCaller(santos)) }, (q) =>
      q("select mhq.audit('test.probe', 'agent', $1, '{}'::jsonb, null)", [santos.id]),
    );
    const db = await getDatabase();
    const rows = await db.query<{ actor_type: string; actor_id: string; client_id: string }>(
      "select actor_type, actor_id, client_id from audit_log where action = 'test.probe'",
    );
    expect(rows).toEqual([{ actor_type: "agent", actor_id: santos.id, client_id: santos.clientId }]);
  });
});
