// A local stand-in for Supabase Auth (GoTrue) implementing only what the HQ sign-in calls —
// POST /auth/v1/token?grant_type=password|refresh_token|pkce, GET /auth/v1/user, POST /auth/v1/logout,
// POST /auth/v1/otp, POST /auth/v1/verify and GET /auth/v1/authorize (an OAuth provider that signs
// in as `oauthEmail` at once) — with real HS256-signed access tokens, so the
// sign-in runs end to end without a network. Tests read sent magic links from GET /__outbox.
// Run directly (`npx tsx tests/helpers/supabase-auth-server.ts --port 3145`) it serves the
// users of E2E_SUPABASE_USERS (or the e2e defaults) until stopped.
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeSupabaseUser {
  email: string;
  password: string;
  appMetadata?: Record<string, unknown>;
  name?: string;
  /** false: the address was never confirmed */
  confirmed?: boolean;
}

export interface FakeSupabaseAuth {
  url: string;
  anonKey: string;
  jwtSecret: string;
  /** magic-link tokens sent, newest last */
  outbox: { email: string; tokenHash: string; redirectTo: string | null }[];
  /** signs an access token as the server would (for tests of expired and tampered tokens) */
  sign(payload: Record<string, unknown>): string;
  close(): Promise<void>;
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString("base64url");

export function signHs256(payload: Record<string, unknown>, secret: string): string {
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64url(JSON.stringify(payload));
  const sig = createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${sig}`;
}

export function verifyHs256(token: string, secret: string): Record<string, unknown> | null {
  const [head, body, sig] = token.split(".");
  if (!head || !body || !sig) return null;
  const expected = createHmac("sha256", secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(sig, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
  if (typeof payload.exp !== "number" || payload.exp * 1000 <= Date.now()) return null;
  return payload;
}

export async function startFakeSupabaseAuth(opts: {
  users: FakeSupabaseUser[];
  port?: number;
  /** lifetime of access tokens */
  expiresIn?: number;
  /** the address an OAuth provider vouches for when /authorize is visited (an OAuth sign-in) */
  oauthEmail?: string;
  /** fixed values for a server started in another process (the e2e run) */
  jwtSecret?: string;
  anonKey?: string;
}): Promise<FakeSupabaseAuth> {
  const jwtSecret = opts.jwtSecret ?? randomBytes(32).toString("hex");
  const anonKey = opts.anonKey ?? signHs256({ role: "anon", iss: "supabase-fake", exp: Math.floor(Date.now() / 1000) + 10 * 365 * 86400 }, jwtSecret);
  const expiresIn = opts.expiresIn ?? 3600;
  const users = opts.users.map((u) => ({ ...u, id: randomUUID(), createdAt: new Date().toISOString() }));
  const refreshTokens = new Map<string, string>(); // token → user id
  const sessions = new Set<string>(); // live session ids
  const otps = new Map<string, string>(); // token hash → user id
  const codes = new Map<string, { userId: string; challenge: string }>(); // PKCE auth code
  const outbox: FakeSupabaseAuth["outbox"] = [];

  const userJson = (u: (typeof users)[number]) => ({
    id: u.id,
    aud: "authenticated",
    role: "authenticated",
    email: u.email,
    email_confirmed_at: u.confirmed === false ? null : u.createdAt,
    confirmed_at: u.confirmed === false ? null : u.createdAt,
    app_metadata: { provider: "email", providers: ["email"], ...(u.appMetadata ?? {}) },
    user_metadata: u.name ? { full_name: u.name } : {},
    identities: [],
    created_at: u.createdAt,
    updated_at: u.createdAt,
  });
  const sign = (payload: Record<string, unknown>) => signHs256(payload, jwtSecret);
  const session = (u: (typeof users)[number]) => {
    const sessionId = randomUUID();
    sessions.add(sessionId);
    const now = Math.floor(Date.now() / 1000);
    const refresh = randomBytes(16).toString("hex");
    refreshTokens.set(refresh, `${u.id}|${sessionId}`);
    const access = sign({
      aud: "authenticated",
      exp: now + expiresIn,
      iat: now,
      iss: "supabase-fake/auth/v1",
      sub: u.id,
      email: u.email,
      role: "authenticated",
      session_id: sessionId,
      app_metadata: userJson(u).app_metadata,
    });
    return { access_token: access, token_type: "bearer", expires_in: expiresIn, expires_at: now + expiresIn, refresh_token: refresh, user: userJson(u) };
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(body === undefined ? "" : JSON.stringify(body));
    };
    const fail = (status: number, code: string, msg: string) => send(status, { code: status, error_code: code, msg });
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      let raw = "";
      for await (const chunk of req) raw += chunk;
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      if (url.pathname === "/health") return send(200, { ok: true });
      if (url.pathname === "/__outbox") return send(200, { outbox });
      // the browser's visit to the provider: it signs in as `oauthEmail` and comes back with a code
      if (req.method === "GET" && url.pathname === "/auth/v1/authorize") {
        const u = users.find((x) => x.email === opts.oauthEmail);
        const back = new URL(url.searchParams.get("redirect_to") ?? "http://127.0.0.1/");
        if (!u || url.searchParams.get("code_challenge_method")?.toLowerCase() !== "s256") {
          back.searchParams.set("error", "access_denied");
        } else {
          const code = randomUUID();
          codes.set(code, { userId: u.id, challenge: url.searchParams.get("code_challenge") ?? "" });
          back.searchParams.set("code", code);
        }
        res.writeHead(303, { location: back.toString() });
        return res.end();
      }
      // every Auth call carries the project's anon key
      if (req.headers.apikey !== anonKey) return fail(401, "no_api_key", "Invalid API key");
      const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1];
      const verified = bearer ? verifyHs256(bearer, jwtSecret) : null;

      if (req.method === "POST" && url.pathname === "/auth/v1/token") {
        const grant = url.searchParams.get("grant_type");
        if (grant === "password") {
          const u = users.find((x) => x.email.toLowerCase() === String(body.email ?? "").toLowerCase());
          if (!u || u.password !== body.password) return fail(400, "invalid_credentials", "Invalid login credentials");
          if (u.confirmed === false) return fail(400, "email_not_confirmed", "Email not confirmed");
          return send(200, session(u));
        }
        if (grant === "pkce") {
          const entry = codes.get(String(body.auth_code ?? ""));
          const u = users.find((x) => x.id === entry?.userId);
          const challenge = createHash("sha256").update(String(body.code_verifier ?? "")).digest("base64url");
          if (!entry || !u || challenge !== entry.challenge) return fail(400, "bad_code_verifier", "code challenge does not match previously saved code verifier");
          codes.delete(String(body.auth_code));
          return send(200, session(u));
        }
        if (grant === "refresh_token") {
          const owner = refreshTokens.get(String(body.refresh_token ?? ""));
          const [userId, sessionId] = owner?.split("|") ?? [];
          const u = users.find((x) => x.id === userId);
          if (!u || !sessionId || !sessions.has(sessionId)) return fail(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
          refreshTokens.delete(String(body.refresh_token));
          sessions.delete(sessionId);
          return send(200, session(u));
        }
        return fail(400, "unsupported_grant_type", "unsupported grant_type");
      }
      if (req.method === "GET" && url.pathname === "/auth/v1/user") {
        if (!verified || !sessions.has(String(verified.session_id))) return fail(403, "bad_jwt", "invalid JWT: unable to parse or verify signature, token is expired or session ended");
        const u = users.find((x) => x.id === verified.sub);
        return u ? send(200, userJson(u)) : fail(404, "user_not_found", "User not found");
      }
      if (req.method === "POST" && url.pathname === "/auth/v1/logout") {
        if (verified) sessions.delete(String(verified.session_id));
        return send(204);
      }
      if (req.method === "POST" && url.pathname === "/auth/v1/otp") {
        const u = users.find((x) => x.email.toLowerCase() === String(body.email ?? "").toLowerCase());
        if (!u) return fail(422, "otp_disabled", "Signups not allowed for otp");
        const tokenHash = randomBytes(20).toString("hex");
        otps.set(tokenHash, u.id);
        outbox.push({ email: u.email, tokenHash, redirectTo: url.searchParams.get("redirect_to") });
        return send(200, {});
      }
      if (req.method === "POST" && url.pathname === "/auth/v1/verify") {
        const userId = otps.get(String(body.token_hash ?? ""));
        const u = users.find((x) => x.id === userId);
        if (!u) return fail(403, "otp_expired", "Email link is invalid or has expired");
        otps.delete(String(body.token_hash));
        return send(200, session(u));
      }
      return fail(404, "not_found", `${req.method} ${url.pathname} is not implemented here`);
    } catch (err) {
      return fail(500, "unexpected_failure", String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    anonKey,
    jwtSecret,
    outbox,
    sign,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The users the e2e run signs in as (see tests/e2e/07-supabase-auth.spec.ts). */
export const E2E_SUPABASE_USERS: FakeSupabaseUser[] = [
  { email: "invited.curator@example.test", password: "supabase-pass-1", name: "Invited Curator" },
  { email: "metadata.viewer@example.test", password: "supabase-pass-2", name: "Metadata Viewer", appMetadata: { mhq_role: "viewer" } },
  { email: "stranger@example.test", password: "supabase-pass-3", name: "Stranger" },
];

/** The anon key the e2e app is configured with (a project's public key; nothing secret). */
export const E2E_SUPABASE_ANON_KEY = "e2e-supabase-anon-key";

// `npx tsx tests/helpers/supabase-auth-server.ts --port N`: the e2e run's Supabase Auth
if (process.argv[1] && /supabase-auth-server\.ts$/.test(process.argv[1])) {
  const port = Number(process.argv[process.argv.indexOf("--port") + 1] || 0);
  void startFakeSupabaseAuth({ users: E2E_SUPABASE_USERS, port, anonKey: E2E_SUPABASE_ANON_KEY }).then((auth) => {
    process.stdout.write(`fake Supabase Auth on ${auth.url}\n`);
  });
}
