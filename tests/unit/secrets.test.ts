import { describe, expect, it } from "vitest";
import { hashPassword, newAgentKey, safeEqual, sha256, verifyPassword } from "@/lib/auth/secrets";

describe("agent keys", () => {
  it("are mhq_ + 32 random bytes, with a lookup prefix and a SHA-256 hash", () => {
    const a = newAgentKey();
    const b = newAgentKey();
    expect(a.key).toMatch(/^mhq_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.key.slice(4), "base64url")).toHaveLength(32);
    expect(a.prefix).toBe(a.key.slice(0, 12));
    expect(a.hash).toBe(sha256(a.key));
    expect(a.key).not.toBe(b.key);
  });

  it("compares secrets for equality", () => {
    expect(safeEqual("same-secret", "same-secret")).toBe(true);
    expect(safeEqual("same-secret", "same-secreT")).toBe(false);
    expect(safeEqual("short", "a much longer secret")).toBe(false);
  });
});

describe("passwords", () => {
  it("hash with scrypt and a random salt, and verify only the right password", async () => {
    const h1 = await hashPassword("correct horse battery");
    const h2 = await hashPassword("correct horse battery");
    expect(h1).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(h1).not.toBe(h2);
    expect(await verifyPassword("correct horse battery", h1)).toBe(true);
    expect(await verifyPassword("correct horse batterY", h1)).toBe(false);
    expect(await verifyPassword("anything", "md5$abc")).toBe(false);
    // four scrypt derivations of 32 MiB each: seconds on a busy machine
  }, 30_000);
});
