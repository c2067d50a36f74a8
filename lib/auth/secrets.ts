import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;

export const AGENT_KEY_PREFIX = "mhq_";
/** Characters of a key stored in clear to find its row; the rest is only ever stored hashed. */
export const KEY_LOOKUP_LENGTH = 12;

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** Compares two strings in time that depends only on their (hashed) length. */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb);
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** A new agent key: `mhq_` + 32 random bytes (base64url). Only its hash is ever stored. */
export function newAgentKey(): { key: string; prefix: string; hash: string } {
  const key = AGENT_KEY_PREFIX + randomToken(32);
  return { key, prefix: key.slice(0, KEY_LOOKUP_LENGTH), hash: sha256(key) };
}

// scrypt parameters (N=2^15, r=8, p=1): ~50 ms per hash on this hardware, the OWASP baseline.
const SCRYPT = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const derived = await scrypt(password, salt, 64, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64url")}$${derived.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const derived = await scrypt(password, Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return timingSafeEqual(derived, expected);
}
