// The Supabase Auth client side of HQ sign-in, free of database code so the request proxy can use it.
import type { CookieOptions } from "@supabase/ssr";
import type { SupabaseClient } from "@supabase/supabase-js";

/**
 * HQ sign-in through Supabase Auth (`@supabase/ssr`), on when NEXT_PUBLIC_SUPABASE_URL and
 * NEXT_PUBLIC_SUPABASE_ANON_KEY are set. The whole flow runs on the server (password, magic link,
 * OAuth redirect, callback), so the browser never needs the project's URL or key: they are read
 * at run time, never inlined into a build, and one build serves either sign-in.
 */
export interface SupabaseAuthConfig {
  url: string;
  anonKey: string;
  /** OAuth providers enabled on the Supabase project that the sign-in page offers */
  providers: string[];
}

const URL_VAR = "NEXT_PUBLIC_SUPABASE_URL";
const KEY_VAR = "NEXT_PUBLIC_SUPABASE_ANON_KEY";
const PROVIDERS_VAR = "SUPABASE_AUTH_PROVIDERS";

export function supabaseAuthConfig(env: Record<string, string | undefined> = process.env): SupabaseAuthConfig | null {
  const url = env[URL_VAR]?.trim();
  const anonKey = env[KEY_VAR]?.trim();
  if (!url || !anonKey) return null;
  const providers = (env[PROVIDERS_VAR] ?? "")
    .split(",")
    .map((p) => p.trim().toLowerCase())
    .filter((p) => /^[a-z0-9_-]+$/.test(p));
  return { url: url.replace(/\/+$/, ""), anonKey, providers };
}

export interface CookieJar {
  getAll(): { name: string; value: string }[];
  /** absent where cookies cannot be written (a page render): the proxy refreshes sessions instead */
  set?(name: string, value: string, options: CookieOptions): void;
}

/** Loaded on first use: a server without Supabase never loads the Supabase libraries. */
export async function supabaseClient(config: SupabaseAuthConfig, jar: CookieJar): Promise<SupabaseClient> {
  const { createServerClient } = await import("@supabase/ssr");
  return createServerClient(config.url, config.anonKey, {
    // sign-in never opens a Realtime channel; Node 20 has no WebSocket for the client to find
    realtime: { transport: NoRealtime as never },
    cookies: {
      getAll: () => jar.getAll(),
      setAll: (cookies) => {
        if (!jar.set) return;
        for (const c of cookies) jar.set(c.name, c.value, c.options);
      },
    },
  });
}

/** Supabase keeps its session in `sb-<project>-auth-token` cookies (chunked as `.0`, `.1`…). */
export const hasSupabaseSession = (jar: CookieJar) => jar.getAll().some((c) => /^sb-.+-auth-token(?:\.\d+)?$/.test(c.name));

class NoRealtime {
  constructor() {
    throw new Error("Supabase Realtime is not used by HQ sign-in");
  }
}
