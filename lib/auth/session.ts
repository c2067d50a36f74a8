import "server-only";
import { getConfig } from "@/lib/config";
import { asSystem } from "@/lib/db";
import type { HqCaller } from "./caller";
import * as q from "./queries";
import { randomToken, sha256 } from "./secrets";
import { supabaseAuthConfig, verifySupabaseSession } from "./supabase";

export const SESSION_COOKIE = "mhq_session";

/** Reads cookies from a request or from next/headers alike. */
export interface CookieReader {
  get(name: string): { value: string } | undefined;
  getAll?(): { name: string; value: string }[];
}

/**
 * How HQ users are recognised. Pages and the API ask only `getSessionUser`; a Supabase Auth
 * provider (`@supabase/ssr`) can be added beside the local one and chosen by configuration
 * without touching either.
 */
export interface SessionProvider {
  readonly name: string;
  getUser(cookies: CookieReader): Promise<HqCaller | null>;
}

// Re-touching a session on every request would write on every read; once a minute is enough.
const TOUCH_AFTER_MS = 60_000;

export const localSessionProvider: SessionProvider = {
  name: "local",
  async getUser(cookies) {
    const token = cookies.get(SESSION_COOKIE)?.value;
    if (!token) return null;
    return asSystem(async (tx) => {
      const row = await q.findSessionUser(tx, { tokenHash: sha256(token) });
      if (!row) return null;
      if (Date.now() - new Date(row.lastSeenAt).getTime() > TOUCH_AFTER_MS) {
        await q.touchSession(tx, { sessionId: row.sessionId });
      }
      return { type: "hq", userId: row.id, name: row.name || row.email, email: row.email, role: row.role };
    });
  },
};

/**
 * Supabase Auth: every check asks Supabase who the session belongs to (never the cookie's own
 * word) and then whether that user is mapped to an active HQ user. Cookies are only read here;
 * the proxy refreshes them on each request.
 */
export const supabaseSessionProvider: SessionProvider = {
  name: "supabase",
  async getUser(cookies) {
    const config = supabaseAuthConfig();
    if (!config || !cookies.getAll) return null;
    const verdict = await verifySupabaseSession(config, { getAll: () => cookies.getAll!() });
    return verdict?.ok ? verdict.user : null;
  },
};

/** Supabase Auth when NEXT_PUBLIC_SUPABASE_URL and NEXT_PUBLIC_SUPABASE_ANON_KEY are set, else the built-in sign-in. */
export function getSessionProvider(): SessionProvider {
  return supabaseAuthConfig() ? supabaseSessionProvider : localSessionProvider;
}

export function getSessionUser(cookies: CookieReader): Promise<HqCaller | null> {
  return getSessionProvider().getUser(cookies);
}

/** Starts a session for a signed-in user and returns the cookie to set. */
export async function startSession(userId: string, userAgent: string) {
  const token = randomToken(32);
  const ttlHours = getConfig().SESSION_TTL_HOURS;
  await asSystem(async (tx) => {
    await q.insertSession(tx, { userId, tokenHash: sha256(token), userAgent, ttlHours });
    await q.markHqLogin(tx, { id: userId });
  });
  return { name: SESSION_COOKIE, value: token, maxAge: ttlHours * 3600 };
}

export async function endSession(token: string | undefined) {
  if (!token) return;
  await asSystem((tx) => q.deleteSession(tx, { tokenHash: sha256(token) }));
}
