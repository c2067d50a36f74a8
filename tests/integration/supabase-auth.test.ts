import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, api, type ApiResponse } from "../helpers/api";
import { startFakeSupabaseAuth, type FakeSupabaseAuth } from "../helpers/supabase-auth-server";

// HQ sign-in through Supabase Auth against a local stand-in of its Auth API (real HS256 tokens):
// who is mapped (an HQ invite to the address, or app_metadata.mhq_role), who is refused (unmapped,
// disabled, unconfirmed), and that a cookie is never trusted on its own word (expired, tampered,
// signed out).
let auth: FakeSupabaseAuth;

beforeAll(async () => {
  auth = await startFakeSupabaseAuth({
    users: [
      { email: "curator@sb.test", password: "pw-curator-1", name: "Cora Curator" },
      { email: "meta-admin@sb.test", password: "pw-meta-1", appMetadata: { mhq_role: "admin" } },
      { email: "bogus-role@sb.test", password: "pw-bogus-1", appMetadata: { mhq_role: "superuser" } },
      { email: "stranger@sb.test", password: "pw-stranger-1" },
      { email: "later-disabled@sb.test", password: "pw-disabled-1" },
      { email: "expired-invite@sb.test", password: "pw-expired-1" },
    ],
    oauthEmail: "curator@sb.test",
  });
  process.env.NEXT_PUBLIC_SUPABASE_URL = auth.url;
  process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY = auth.anonKey;
  process.env.SUPABASE_AUTH_PROVIDERS = "github";
});

afterAll(async () => {
  delete process.env.NEXT_PUBLIC_SUPABASE_URL;
  delete process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY;
  delete process.env.SUPABASE_AUTH_PROVIDERS;
  await auth.close();
});

/** The browser's cookies: what responses set, sent back on the next call. */
class Jar {
  cookies = new Map<string, string>();
  take(res: ApiResponse) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const i = pair!.indexOf("=");
      const name = pair!.slice(0, i);
      const value = decodeURIComponent(pair!.slice(i + 1));
      if (!value || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ");
  }
  supabaseSession(): { name: string; session: Record<string, unknown> } {
    const [name, value] = [...this.cookies].find(([k]) => /^sb-.+-auth-token$/.test(k))!;
    const json = value.startsWith("base64-") ? Buffer.from(value.slice(7), "base64url").toString("utf8") : value;
    return { name, session: JSON.parse(json) as Record<string, unknown> };
  }
  setSupabaseSession(name: string, session: Record<string, unknown>) {
    this.cookies.set(name, `base64-${Buffer.from(JSON.stringify(session)).toString("base64url")}`);
  }
}

const signIn = async (jar: Jar, email: string, password: string) =>
  jar.take(await api("POST", "/api/v1/auth/supabase/password", { body: { email, password }, headers: { cookie: jar.header() } }));
const whoAmI = async (jar: Jar) => jar.take(await api("GET", "/api/v1/auth/session", { cookie: jar.header() })).body.user;

describe("Supabase sign-in maps users to HQ", () => {
  it("an HQ invite to the address: the invited role, the invitation used up and audited", async () => {
    expect((await admin.post("/api/v1/hq-users", { email: "curator@sb.test", role: "curator" })).status).toBe(201);
    const jar = new Jar();
    const res = await signIn(jar, "curator@sb.test", "pw-curator-1");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user).toMatchObject({ type: "hq", email: "curator@sb.test", role: "curator" });
    expect([...jar.cookies.keys()].some((k) => /^sb-.+-auth-token$/.test(k))).toBe(true);
    expect(await whoAmI(jar)).toMatchObject({ email: "curator@sb.test", role: "curator" });
    // the console's API accepts the session with the mapped role: a curator may not manage users
    expect((await api("GET", "/api/v1/hq-users", { cookie: jar.header() })).status).toBe(403);
    const users = (await admin.get("/api/v1/hq-users")).body.users as { email: string; invitePending: boolean; lastLoginAt: string | null }[];
    expect(users.find((u) => u.email === "curator@sb.test")).toMatchObject({ invitePending: false });
    const audit = await admin.get("/api/v1/audit?action=hq_user.accept_invite");
    expect(JSON.stringify(audit.body)).toContain("supabase");
  });

  it("app_metadata.mhq_role: the user joins HQ with that role, once, audited", async () => {
    const jar = new Jar();
    expect((await signIn(jar, "meta-admin@sb.test", "pw-meta-1")).body.user).toMatchObject({ role: "admin" });
    expect((await api("GET", "/api/v1/hq-users", { cookie: jar.header() })).status).toBe(200);
    const again = await signIn(new Jar(), "meta-admin@sb.test", "pw-meta-1");
    expect(again.body.user.userId).toBe((await whoAmI(jar)).userId);
    const users = (await admin.get("/api/v1/hq-users")).body.users as { email: string }[];
    expect(users.filter((u) => u.email === "meta-admin@sb.test")).toHaveLength(1);
    expect(JSON.stringify((await admin.get("/api/v1/audit?action=hq_user.provision_supabase")).body)).toContain(again.body.user.userId);
  });

  it("refuses an unmapped user, a role HQ does not have, and an expired invitation, and ends their session", async () => {
    for (const [email, password] of [
      ["stranger@sb.test", "pw-stranger-1"],
      ["bogus-role@sb.test", "pw-bogus-1"],
    ]) {
      const jar = new Jar();
      const res = await signIn(jar, email!, password!);
      expect(res.status).toBe(403);
      expect(res.body.error.details).toEqual({ reason: "unmapped" });
      expect(res.body.error.message).toMatch(/no access to Memory HQ/);
      expect([...jar.cookies.keys()].filter((k) => k.startsWith("sb-"))).toEqual([]);
    }
    expect((await admin.post("/api/v1/hq-users", { email: "expired-invite@sb.test", role: "viewer" })).status).toBe(201);
    const { getDatabase } = await import("@/lib/db");
    await (await getDatabase()).query("update hq_users set invite_expires_at = now() - interval '1 hour' where email = 'expired-invite@sb.test'");
    expect((await signIn(new Jar(), "expired-invite@sb.test", "pw-expired-1")).body.error.details).toEqual({ reason: "unmapped" });
    // a wrong password is just that
    expect((await signIn(new Jar(), "curator@sb.test", "wrong-password")).status).toBe(401);
  });

  it("refuses a disabled HQ user, at sign-in and on the next request of a live session", async () => {
    const invited = await admin.post("/api/v1/hq-users", { email: "later-disabled@sb.test", role: "viewer" });
    const jar = new Jar();
    expect((await signIn(jar, "later-disabled@sb.test", "pw-disabled-1")).status).toBe(200);
    expect(await whoAmI(jar)).toMatchObject({ role: "viewer" });
    expect((await admin.patch(`/api/v1/hq-users/${invited.body.user.id}`, { disabled: true })).status).toBe(200);
    expect(await whoAmI(jar)).toBeNull();
    expect((await api("GET", "/api/v1/agents", { cookie: jar.header() })).status).toBe(401);
    const res = await signIn(new Jar(), "later-disabled@sb.test", "pw-disabled-1");
    expect(res.status).toBe(403);
    expect(res.body.error.details).toEqual({ reason: "disabled" });
  });

  it("refuses an address Supabase has not confirmed", async () => {
    const { mapSupabaseUser } = await import("@/lib/auth/supabase");
    const verdict = await mapSupabaseUser({ id: "x", email: "curator@sb.test", email_confirmed_at: undefined, app_metadata: {}, user_metadata: {} });
    expect(verdict).toEqual({ ok: false, reason: "unconfirmed", email: "curator@sb.test" });
  });
});

describe("a Supabase cookie is never trusted on its own word", () => {
  it("a tampered access token (another role, another user) is refused by Supabase, so by HQ", async () => {
    const jar = new Jar();
    await signIn(jar, "curator@sb.test", "pw-curator-1");
    const { name, session } = jar.supabaseSession();
    const [head, , sig] = String(session.access_token).split(".");
    const forged = Buffer.from(JSON.stringify({ sub: "someone-else", email: "meta-admin@sb.test", app_metadata: { mhq_role: "admin" }, exp: 9999999999 })).toString("base64url");
    jar.setSupabaseSession(name, { ...session, access_token: `${head}.${forged}.${sig}`, user: { ...(session.user as object), email: "meta-admin@sb.test" } });
    expect(await whoAmI(jar)).toBeNull();
    expect((await api("GET", "/api/v1/agents", { cookie: jar.header() })).status).toBe(401);
  });

  it("an expired access token that claims to be fresh is refused; a real expiry is refreshed", async () => {
    const jar = new Jar();
    await signIn(jar, "curator@sb.test", "pw-curator-1");
    const { name, session } = jar.supabaseSession();
    const claims = JSON.parse(Buffer.from(String(session.access_token).split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
    const expired = auth.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 });
    jar.setSupabaseSession(name, { ...session, access_token: expired, expires_at: Math.floor(Date.now() / 1000) + 3600 });
    expect(await whoAmI(jar)).toBeNull();
    // the same expired token, honestly dated: the client refreshes it with the refresh token
    jar.setSupabaseSession(name, { ...session, access_token: expired, expires_at: Math.floor(Date.now() / 1000) - 60 });
    expect(await whoAmI(jar)).toMatchObject({ email: "curator@sb.test" });
  });

  it("sign-out ends the session at Supabase: the old cookie no longer works", async () => {
    const jar = new Jar();
    await signIn(jar, "curator@sb.test", "pw-curator-1");
    const before = jar.header();
    jar.take(await api("POST", "/api/v1/auth/logout", { cookie: before }));
    expect([...jar.cookies.keys()].filter((k) => k.startsWith("sb-"))).toEqual([]);
    expect((await api("GET", "/api/v1/auth/session", { cookie: before })).body.user).toBeNull();
  });

  it("while Supabase is on, the built-in password sign-in steps aside", async () => {
    const res = await api("POST", "/api/v1/auth/login", { body: { email: "curator@sb.test", password: "whatever-123" } });
    expect(res.status).toBe(409);
  });
});

describe("magic links", () => {
  it("signs in through the link Supabase sends, and says the same for unknown addresses", async () => {
    const jar = new Jar();
    const sent = await api("POST", "/api/v1/auth/supabase/magic-link", { body: { email: "curator@sb.test" } });
    expect(sent.body).toEqual({ sent: true });
    expect((await api("POST", "/api/v1/auth/supabase/magic-link", { body: { email: "nobody@sb.test" } })).body).toEqual({ sent: true });
    const mail = auth.outbox.filter((m) => m.email === "curator@sb.test").at(-1)!;
    expect(mail.redirectTo).toBe("http://localhost:3000/api/v1/auth/supabase/callback");
    const back = jar.take(await api("GET", `/api/v1/auth/supabase/callback?token_hash=${mail.tokenHash}&type=email`));
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe("http://localhost:3000/agents");
    expect(await whoAmI(jar)).toMatchObject({ email: "curator@sb.test", role: "curator" });
    // a link works once
    const reused = await api("GET", `/api/v1/auth/supabase/callback?token_hash=${mail.tokenHash}&type=email`);
    expect(reused.headers.get("location")).toBe("http://localhost:3000/login?error=link");
  });

  it("sends an unmapped user who followed a link to the refusal page", async () => {
    await api("POST", "/api/v1/auth/supabase/magic-link", { body: { email: "stranger@sb.test" } });
    const mail = auth.outbox.filter((m) => m.email === "stranger@sb.test").at(-1)!;
    const jar = new Jar();
    const back = jar.take(await api("GET", `/api/v1/auth/supabase/callback?token_hash=${mail.tokenHash}&type=email`));
    expect(back.headers.get("location")).toBe("http://localhost:3000/signin-refused?reason=unmapped");
    expect([...jar.cookies.keys()].filter((k) => k.startsWith("sb-"))).toEqual([]);
  });
});

describe("OAuth through Supabase's redirect", () => {
  it("goes to Supabase with a PKCE challenge and comes back signed in as the mapped user", async () => {
    const jar = new Jar();
    const start = jar.take(await api("GET", "/api/v1/auth/supabase/oauth?provider=github"));
    expect(start.status).toBe(303);
    const authorize = new URL(start.headers.get("location")!);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${auth.url}/auth/v1/authorize`);
    expect(authorize.searchParams.get("provider")).toBe("github");
    expect(authorize.searchParams.get("redirect_to")).toMatch(/^http:\/\/localhost:3000\/api\/v1\/auth\/supabase\/callback/);
    expect([...jar.cookies.keys()].some((k) => k.endsWith("-code-verifier"))).toBe(true);
    // the provider signs the user in and Supabase sends the browser back with a code
    const fromProvider = await fetch(authorize, { redirect: "manual" });
    const callback = new URL(fromProvider.headers.get("location")!);
    const back = jar.take(await api("GET", `${callback.pathname}${callback.search}`, { cookie: jar.header() }));
    expect(back.headers.get("location")).toBe("http://localhost:3000/agents");
    expect(await whoAmI(jar)).toMatchObject({ email: "curator@sb.test", role: "curator" });
    // without the browser's verifier cookie a code is worthless
    const stolen = await api("GET", `${callback.pathname}${callback.search}`);
    expect(stolen.headers.get("location")).toBe("http://localhost:3000/login?error=link");
  });

  it("offers only the providers the server lists", async () => {
    expect((await api("GET", "/api/v1/auth/supabase/oauth?provider=gitlab")).status).toBe(404);
  });
});

