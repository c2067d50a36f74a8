import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";

const cookieFrom = (res: { headers: Headers }) => {
  const set = res.headers.get("set-cookie") ?? "";
  const m = /mhq_session=([^;]*)/.exec(set);
  return m ? `mhq_session=${m[1]}` : "";
};

describe("HQ sign-in", () => {
  const founder = { email: "founder@example.com", password: "a long passphrase", name: "Bridget" };
  let adminCookie = "";

  it("offers setup while no HQ user exists, then creates the first admin exactly once", async () => {
    expect((await api("GET", "/api/v1/auth/session")).body).toEqual({ needsSetup: true, user: null });
    const short = await api("POST", "/api/v1/auth/setup", { body: { ...founder, password: "short" } });
    expect(short.status).toBe(422);
    const res = await api("POST", "/api/v1/auth/setup", { body: founder });
    expect(res.status).toBe(201);
    expect(res.headers.get("set-cookie")).toMatch(/mhq_session=.+; .*HttpOnly/i);
    adminCookie = cookieFrom(res);
    const again = await api("POST", "/api/v1/auth/setup", { body: { ...founder, email: "other@example.com" } });
    expect(again.status).toBe(409);
    const session = await api("GET", "/api/v1/auth/session", { cookie: adminCookie });
    expect(session.body).toMatchObject({ needsSetup: false, user: { role: "admin", email: founder.email } });
  });

  it("signs in with the right password only, and signs out", async () => {
    expect((await api("POST", "/api/v1/auth/login", { body: { email: founder.email, password: "wrong password" } })).status).toBe(401);
    const ok = await api("POST", "/api/v1/auth/login", { body: { email: "FOUNDER@example.com", password: founder.password } });
    expect(ok.status).toBe(200);
    const cookie = cookieFrom(ok);
    expect((await api("GET", "/api/v1/agents", { cookie })).status).toBe(200);
    await api("POST", "/api/v1/auth/logout", { cookie });
    expect((await api("GET", "/api/v1/agents", { cookie })).status).toBe(401);
  });

  it("invites a curator who sets a password; curators cannot manage users", async () => {
    const invite = await api("POST", "/api/v1/hq-users", { cookie: adminCookie, body: { email: "cur@example.com", role: "curator" } });
    expect(invite.status).toBe(201);
    expect(invite.body.user).toMatchObject({ email: "cur@example.com", role: "curator", invitePending: true });
    const accepted = await api("POST", "/api/v1/auth/accept-invite", {
      body: { token: invite.body.inviteToken, password: "curator passphrase", name: "Cora" },
    });
    expect(accepted.status).toBe(200);
    const curator = cookieFrom(accepted);
    expect((await api("GET", "/api/v1/hq-users", { cookie: curator })).status).toBe(403);
    expect((await api("GET", "/api/v1/audit", { cookie: curator })).status).toBe(200);
    // the token works once
    const reuse = await api("POST", "/api/v1/auth/accept-invite", {
      body: { token: invite.body.inviteToken, password: "another passphrase" },
    });
    expect(reuse.status).toBe(404);
  });

  it("a lost invitation gets a new link, which cancels the old; disabling cancels it for good", async () => {
    const invite = await api("POST", "/api/v1/hq-users", { cookie: adminCookie, body: { email: "lost@example.com", role: "viewer" } });
    expect(invite.status).toBe(201);
    const id = invite.body.user.id as string;
    const accept = (token: string) => api("POST", "/api/v1/auth/accept-invite", { body: { token, password: "viewer passphrase" } });

    // inviting the address again points at the new link
    const twice = await api("POST", "/api/v1/hq-users", { cookie: adminCookie, body: { email: "LOST@example.com", role: "viewer" } });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatchObject({ details: { userId: id }, message: expect.stringContaining(`/api/v1/hq-users/${id}/invitation`) });

    // disabled: the link stops working, and enabling again does not bring it back
    const disabled = await api("PATCH", `/api/v1/hq-users/${id}`, { cookie: adminCookie, body: { disabled: true } });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect((await api("POST", `/api/v1/hq-users/${id}/invitation`, { cookie: adminCookie })).status).toBe(409);
    const enabled = await api("PATCH", `/api/v1/hq-users/${id}`, { cookie: adminCookie, body: { disabled: false } });
    expect(enabled.body.user).toMatchObject({ invitePending: true, disabledAt: null });
    expect((await accept(invite.body.inviteToken)).status).toBe(404);

    // a new link works, once; the one before it does not
    const first = await api("POST", `/api/v1/hq-users/${id}/invitation`, { cookie: adminCookie });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ user: { id, invitePending: true }, invitePath: `/accept-invite?token=${first.body.inviteToken}` });
    const second = await api("POST", `/api/v1/hq-users/${id}/invitation`, { cookie: adminCookie });
    expect(second.body.inviteToken).not.toBe(first.body.inviteToken);
    expect((await accept(first.body.inviteToken)).status).toBe(404);
    expect((await accept(second.body.inviteToken)).status).toBe(200);
    expect((await accept(second.body.inviteToken)).status).toBe(404);

    // accepted: no new link; and only admins issue them
    const after = await api("POST", `/api/v1/hq-users/${id}/invitation`, { cookie: adminCookie });
    expect(after.status).toBe(409);
    expect(after.body.error.message).toMatch(/accepted/);
    const viewer = cookieFrom(await api("POST", "/api/v1/auth/login", { body: { email: "lost@example.com", password: "viewer passphrase" } }));
    expect((await api("POST", `/api/v1/hq-users/${id}/invitation`, { cookie: viewer })).status).toBe(403);
    const audit = await api("GET", "/api/v1/audit?action=hq_user.reinvite", { cookie: adminCookie });
    expect(audit.body.entries).toHaveLength(2);
  });

  it("never leaves HQ without an active admin", async () => {
    const users = await api("GET", "/api/v1/hq-users", { cookie: adminCookie });
    const me = users.body.users.find((u: { email: string }) => u.email === founder.email);
    const demote = await api("PATCH", `/api/v1/hq-users/${me.id}`, { cookie: adminCookie, body: { role: "viewer" } });
    expect(demote.status).toBe(409);
    const still = await api("GET", "/api/v1/auth/session", { cookie: adminCookie });
    expect(still.body.user.role).toBe("admin");
  });

  it("refuses a cookie-authenticated write from another origin", async () => {
    const res = await api("POST", "/api/v1/clients", {
      cookie: adminCookie,
      body: { name: "Cross Site" },
      headers: { origin: "https://evil.example", host: "localhost:3000" },
    });
    expect(res.status).toBe(403);
  });

  it("rate-limits repeated failed sign-ins with 429", async () => {
    const attempt = () => api("POST", "/api/v1/auth/login", { body: { email: "cur@example.com", password: "guess guess" } });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await attempt()).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[11]).toBe(429);
    expect((await attempt()).body.error.code).toBe("rate_limited");
  });
});
