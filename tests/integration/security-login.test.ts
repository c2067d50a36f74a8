import { afterEach, describe, expect, it, vi } from "vitest";
import { api } from "../helpers/api";
import { createHqUser } from "../helpers/fixtures";
import { currentTestDatabase } from "../helpers/setup-env";
import { ACCOUNT_LIMIT, ADDRESS_LIMIT, createLoginThrottle, WINDOW_SECONDS } from "@/lib/auth/login-throttle";
import { DUMMY_PASSWORD_HASH } from "@/lib/auth/service";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { resetConfigForTests } from "@/lib/config";
import { RateLimitedError } from "@/lib/http/errors";
import * as secrets from "@/lib/auth/secrets";

// The sign-in limit: per account and per trusted client address, kept in the database (so every
// instance shares it), never bypassed by a made-up X-Forwarded-For, answered 429 with Retry-After;
// and a failed sign-in costs the same scrypt hash whether or not the email has an account.

vi.mock("@/lib/auth/secrets", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/auth/secrets")>();
  return { ...actual, verifyPassword: vi.fn(actual.verifyPassword) };
});

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

function trustProxy(value: string) {
  vi.stubEnv("TRUST_PROXY", value);
  resetConfigForTests();
}

let n = 0;
const unknownEmail = () => `nobody-${++n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const login = (email: string, xff?: string, password = "wrong wrong wrong") =>
  api("POST", "/api/v1/auth/login", { body: { email, password }, headers: xff ? { "x-forwarded-for": xff } : {} });
const spoof = (i: number) => `203.0.113.${i % 250}`;

async function clearThrottle() {
  await (await getDatabase()).query("delete from login_throttle");
}

describe("sign-in timing", () => {
  it("checks an unknown email's password against a dummy scrypt hash, like a wrong password", async () => {
    await clearThrottle();
    const user = await createHqUser("viewer");
    const verify = vi.mocked(secrets.verifyPassword);
    verify.mockClear();

    const unknown = await login(unknownEmail());
    expect(unknown.status).toBe(401);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify.mock.calls[0]![1]).toBe(DUMMY_PASSWORD_HASH);

    const wrong = await login(user.email);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(verify).toHaveBeenCalledTimes(2);
    // the real hash and the dummy have the same scrypt parameters: the same cost
    const real = verify.mock.calls[1]![1];
    expect(real).not.toBe(DUMMY_PASSWORD_HASH);
    expect(real.split("$").slice(0, 4)).toEqual(DUMMY_PASSWORD_HASH.split("$").slice(0, 4));
    await expect(secrets.verifyPassword("anything", DUMMY_PASSWORD_HASH)).resolves.toBe(false);
  });
});

describe("the sign-in limit", () => {
  it("is not bypassed by sending a different X-Forwarded-For each time (no trusted proxy)", async () => {
    await clearThrottle();
    const email = unknownEmail();
    const statuses: number[] = [];
    for (let i = 0; i < ACCOUNT_LIMIT + 1; i++) statuses.push((await login(email, spoof(i))).status);
    expect(statuses.slice(0, ACCOUNT_LIMIT).every((s) => s === 401)).toBe(true);
    const refused = await login(email, spoof(99));
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  });

  it("believes only the address the trusted proxy appended, and limits per address over many accounts", async () => {
    await clearThrottle();
    trustProxy("1");
    // the caller writes anything on the left; the proxy appends the address it saw on the right
    for (let i = 0; i < ADDRESS_LIMIT; i++) expect((await login(unknownEmail(), `${spoof(i)}, 198.51.100.7`)).status).toBe(401);
    const refused = await login(unknownEmail(), `${spoof(200)}, 198.51.100.7`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // another client behind the same proxy is not affected
    expect((await login(unknownEmail(), "198.51.100.8")).status).toBe(401);
  });

  it("skips the configured proxy addresses and CIDR ranges from the right", async () => {
    await clearThrottle();
    trustProxy("10.0.0.0/8, 192.0.2.1");
    for (let i = 0; i < ADDRESS_LIMIT; i++) {
      expect((await login(unknownEmail(), `${spoof(i)}, 198.51.100.20, 10.4.5.6, 192.0.2.1`)).status).toBe(401);
    }
    expect((await login(unknownEmail(), `${spoof(7)}, 198.51.100.20, 10.9.9.9`)).status).toBe(429);
    expect((await login(unknownEmail(), "198.51.100.21, 10.4.5.6")).status).toBe(401);
  });

  it("holds per account across addresses", async () => {
    await clearThrottle();
    trustProxy("1");
    const user = await createHqUser("viewer");
    for (let i = 0; i < ACCOUNT_LIMIT; i++) expect((await login(user.email, `198.51.100.${i + 30}`)).status).toBe(401);
    // even the right password from a fresh address waits for the window
    const refused = await login(user.email, "198.51.100.99", "a long test passphrase");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("forgives an account's failures after a successful sign-in", async () => {
    await clearThrottle();
    const user = await createHqUser("viewer");
    for (let i = 0; i < ACCOUNT_LIMIT - 1; i++) expect((await login(user.email)).status).toBe(401);
    expect((await login(user.email, undefined, "a long test passphrase")).status).toBe(200);
    for (let i = 0; i < ACCOUNT_LIMIT - 1; i++) expect((await login(user.email)).status).toBe(401);
  });

  it("is one limit for two app instances on one database (two module states, two pools)", async () => {
    await clearThrottle();
    const testDb = currentTestDatabase();
    const poolA = await getDatabase();
    const poolB = testDb.connect ? testDb.connect(5) : poolA; // one connection is all the embedded database has
    const instanceA = createLoginThrottle(async () => poolA);
    vi.resetModules();
    const fresh = await import("@/lib/auth/login-throttle");
    expect(fresh.createLoginThrottle).not.toBe(createLoginThrottle);
    const instanceB = fresh.createLoginThrottle(async () => poolB);

    const email = unknownEmail();
    for (let i = 0; i < ACCOUNT_LIMIT; i++) {
      await (i % 2 ? instanceA : instanceB).attempt(email, `198.51.100.${i}`);
    }
    await expect(instanceA.attempt(email, "198.51.100.200")).rejects.toBeInstanceOf(Error);
    await expect(instanceB.attempt(email, "198.51.100.201")).rejects.toMatchObject({ code: "rate_limited" });

    // concurrent attempts through both instances: no count is lost, exactly the limit passes
    const other = unknownEmail();
    const results = await Promise.allSettled(
      Array.from({ length: 3 * ACCOUNT_LIMIT }, (_, i) => (i % 2 ? instanceA : instanceB).attempt(other, `192.0.2.${i}`)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(ACCOUNT_LIMIT);
    for (const r of results) {
      if (r.status === "rejected") expect((r.reason as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    }
  });

  it("starts an ended window again and sweeps old windows without resetting live ones", async () => {
    await clearThrottle();
    const db = await getDatabase();
    const throttle = createLoginThrottle();
    const email = unknownEmail();
    for (let i = 0; i < ACCOUNT_LIMIT; i++) await throttle.attempt(email, "198.51.100.1");
    await expect(throttle.attempt(email, "198.51.100.1")).rejects.toMatchObject({ code: "rate_limited" });
    // the window ends: the next attempt counts from 1 again
    await db.query("update login_throttle set window_ends = now() - interval '1 second'");
    await expect(throttle.attempt(email, "198.51.100.1")).resolves.toBeUndefined();

    // many old windows are removed a few at a time by later attempts; live counts stay
    await db.query(
      `insert into login_throttle (key, attempts, window_ends)
       select encode(sha256(('old' || g)::bytea), 'hex'), 3, now() - interval '2 hours' from generate_series(1, 30) g`,
    );
    const live = await db.query<{ n: number }>("select count(*)::int as n from login_throttle where window_ends > now()");
    await throttle.attempt(unknownEmail(), "198.51.100.2");
    const [left] = await db.query<{ old: number; live: number }>(
      `select count(*) filter (where window_ends < now() - interval '1 hour')::int as old,
              count(*) filter (where window_ends > now())::int as live from login_throttle`,
    );
    expect(left!.old).toBeLessThan(30);
    expect(left!.live).toBe(live[0]!.n + 2);
  });

  it("is system only: no API role can read, write or reset it", async () => {
    const db = await getDatabase();
    const admin = claimsFor({ type: "hq", userId: null, name: "Admin", email: null, role: "admin" });
    for (const sql of [
      "select * from login_throttle",
      `insert into login_throttle (key, attempts, window_ends) values (repeat('a', 64), 0, now())`,
      "delete from login_throttle",
      "update login_throttle set attempts = 0",
    ]) {
      await expect(withClaims(db, admin, (tx) => tx.query(sql)), sql).rejects.toMatchObject({ code: "42501" });
    }
  });
});
