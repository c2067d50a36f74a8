import "server-only";
import { getDatabase, type Database } from "@/lib/db";
import { DIRECT_ADDRESS } from "@/lib/http/caller-address";
import { RateLimitedError } from "@/lib/http/errors";
import { sha256 } from "./secrets";
import * as q from "./login-throttle-queries";

/** Sign-in attempts allowed per account (an email) in one window, from any number of addresses. */
export const ACCOUNT_LIMIT = 10;
/** Sign-in attempts allowed per client address in one window, over any number of accounts. */
export const ADDRESS_LIMIT = 30;
export const WINDOW_SECONDS = 15 * 60;

const accountKey = (email: string) => sha256(`account:${email.trim().toLowerCase()}`);
const addressKey = (address: string) => sha256(`address:${address}`);

/**
 * The sign-in limit, kept in the database so every app instance on it shares one count. `attempt`
 * counts the attempt for the account and the address before the password is checked (so parallel
 * guesses are counted too) and refuses it past either limit; `succeeded` forgives the account and
 * gives the address its attempt back.
 */
export function createLoginThrottle(database: () => Promise<Database> = getDatabase) {
  return {
    async attempt(email: string, address: string): Promise<void> {
      const db = await database();
      const limits = new Map([[accountKey(email), ACCOUNT_LIMIT]]);
      // Without a trusted proxy every caller is the same "direct" address: a limit on it would let
      // anyone lock everyone out of sign-in with 30 wrong passwords, so only the account limit holds.
      if (address !== DIRECT_ADDRESS) limits.set(addressKey(address), ADDRESS_LIMIT);
      const counts = await db.transaction((tx) => q.countAttempts(tx, { keys: [...limits.keys()], windowSeconds: WINDOW_SECONDS }));
      const over = counts.filter((c) => c.attempts > limits.get(c.key)!);
      // ended windows are cleared a few at a time, outside the counting statement
      await db.transaction((tx) => q.sweepEnded(tx, { limit: 20, graceSeconds: WINDOW_SECONDS }));
      if (over.length) {
        const seconds = Math.max(...over.map((c) => c.retryAfter));
        throw new RateLimitedError(`Too many sign-in attempts; try again in ${seconds} s`, seconds);
      }
    },
    async succeeded(email: string, address: string): Promise<void> {
      const db = await database();
      await db.transaction((tx) => q.clearKey(tx, { key: accountKey(email) }));
      if (address !== DIRECT_ADDRESS) await db.transaction((tx) => q.giveBackAttempt(tx, { key: addressKey(address) }));
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
