import { expect } from "vitest";
import { admin, api } from "./api";

let counter = 0;
const unique = (base: string) => `${base} ${++counter}-${Math.random().toString(36).slice(2, 6)}`;

/**
 * A word no other test uses, spelled so that full-text search keeps it as it is: a token with a digit
 * in it is never stemmed, while letters alone may be ("zqly" is indexed as "zqli").
 */
export const rareWord = () => `zq${Math.floor(Math.random() * 1e6)}${Math.random().toString(36).slice(2, 6)}`;

export async function createClient(name = unique("Client"), triggerTerms: string[] = []) {
  const res = await admin.post("/api/v1/clients", { name, triggerTerms });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.client as { id: string; name: string; slug: string };
}

export interface TestAgent {
  id: string;
  name: string;
  key: string;
  clientId: string | null;
}

/** Creates an agent through the API and issues it a key. */
export async function createAgent(input: {
  name?: string;
  kind: "internal" | "field";
  role: "manager" | "orchestrator" | "specialist" | "isolated";
  kbAccess?: "read" | "write";
  clientId?: string;
}): Promise<TestAgent> {
  const res = await admin.post("/api/v1/agents", { ...input, name: input.name ?? unique("Agent") });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const agent = res.body.agent;
  const key = await admin.post(`/api/v1/agents/${agent.id}/keys`, { label: "test" });
  expect(key.status).toBe(201);
  return { id: agent.id, name: agent.name, key: key.body.key, clientId: agent.clientId };
}

export interface TestHqUser {
  id: string;
  email: string;
  /** `mhq_session=…`, for `api(…, { cookie })` */
  cookie: string;
}

/** Invites an HQ user with `role` (through the admin key) and accepts the invitation: a signed-in session. */
export async function createHqUser(role: "admin" | "curator" | "viewer"): Promise<TestHqUser> {
  const email = `${role}-${++counter}-${Math.random().toString(36).slice(2, 6)}@example.com`;
  const invite = await admin.post("/api/v1/hq-users", { email, role });
  expect(invite.status, JSON.stringify(invite.body)).toBe(201);
  const accepted = await api("POST", "/api/v1/auth/accept-invite", {
    body: { token: invite.body.inviteToken, password: "a long test passphrase" },
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  const m = /mhq_session=([^;]*)/.exec(accepted.headers.get("set-cookie") ?? "");
  return { id: invite.body.user.id, email, cookie: `mhq_session=${m![1]}` };
}
