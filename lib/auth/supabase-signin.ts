import "server-only";
import type { SupabaseClient } from "@supabase/supabase-js";
import type { z } from "zod";
import { asSystem } from "@/lib/db";
import { ApiError } from "@/lib/http/errors";
import type { HqCaller } from "./caller";
import * as q from "./queries";
import { createLoginThrottle } from "./login-throttle";
import type { loginBody, magicLinkBody, supabaseCallbackQuery } from "./schemas";
import { mapSupabaseUser, supabaseAuthConfig, supabaseClient, type CookieJar, type SupabaseAuthConfig, type SupabaseVerdict } from "./supabase";

// the same per-account and per-address limit as the built-in sign-in, counted in the database
const loginThrottle = createLoginThrottle();

/** Where the refusal page explains why a verified Supabase user may not use HQ. */
export const REFUSED_PATH = "/signin-refused";
/** The path to list under Authentication → URL Configuration → Redirect URLs on the Supabase project. */
export const CALLBACK_PATH = "/api/v1/auth/supabase/callback";

export function requireSupabase(): SupabaseAuthConfig {
  const config = supabaseAuthConfig();
  if (!config) throw new ApiError("not_found", "Supabase sign-in is not configured on this server");
  return config;
}

/** The built-in sign-in routes step aside when HQ signs in through Supabase. */
export function refuseWhenSupabase() {
  if (supabaseAuthConfig()) throw new ApiError("conflict", "This HQ signs in through Supabase Auth; use the sign-in page");
}

/** Signs in with email and password at Supabase; the session cookies go to `jar`. */
export async function signInWithPassword(jar: CookieJar, body: z.infer<typeof loginBody>, ip: string): Promise<HqCaller> {
  const config = requireSupabase();
  await loginThrottle.attempt(body.email, ip);
  const sb = await supabaseClient(config, jar);
  const { error } = await sb.auth.signInWithPassword({ email: body.email, password: body.password });
  if (error) throw new ApiError("unauthorized", "Wrong email or password");
  await loginThrottle.succeeded(body.email, ip);
  const verdict = await verifiedVerdict(sb);
  if (!verdict.ok) throw new ApiError("forbidden", refusalMessage(verdict.reason), { reason: verdict.reason });
  return verdict.user;
}

/**
 * Sends a magic link. The answer is the same whether or not Supabase knows the address, so the
 * form does not tell strangers who has an account.
 */
export async function sendMagicLink(jar: CookieJar, body: z.infer<typeof magicLinkBody>, origin: string, ip: string) {
  const config = requireSupabase();
  await loginThrottle.attempt(body.email, ip);
  await (await supabaseClient(config, jar)).auth.signInWithOtp({
    email: body.email,
    options: { shouldCreateUser: false, emailRedirectTo: `${origin}${CALLBACK_PATH}` },
  });
  return { sent: true as const };
}

/** The Supabase URL that starts an OAuth sign-in (PKCE: the verifier stays in a cookie). */
export async function oauthUrl(jar: CookieJar, provider: string, origin: string): Promise<string> {
  const config = requireSupabase();
  if (!config.providers.includes(provider)) throw new ApiError("not_found", `Sign-in with ${provider} is not enabled here`);
  const { data, error } = await (await supabaseClient(config, jar)).auth.signInWithOAuth({
    provider: provider as Parameters<SupabaseClient["auth"]["signInWithOAuth"]>[0]["provider"],
    options: { redirectTo: `${origin}${CALLBACK_PATH}`, skipBrowserRedirect: true },
  });
  if (error || !data.url) throw new ApiError("service_unavailable", "Supabase did not start the sign-in; try again");
  return data.url;
}

/**
 * The end of a magic link (`token_hash` + `type`) or an OAuth/PKCE redirect (`code`): the path to
 * send the browser to — the console, the refusal page, or back to sign-in with the reason.
 */
export async function completeCallback(jar: CookieJar, query: z.infer<typeof supabaseCallbackQuery>): Promise<string> {
  const config = requireSupabase();
  const sb = await supabaseClient(config, jar);
  if (query.token_hash && query.type) {
    const { error } = await sb.auth.verifyOtp({ token_hash: query.token_hash, type: query.type === "magiclink" ? "email" : query.type });
    if (error) return "/login?error=link";
  } else if (query.code) {
    const { error } = await sb.auth.exchangeCodeForSession(query.code);
    if (error) return "/login?error=link";
  } else {
    return "/login?error=link";
  }
  const verdict = await verifiedVerdict(sb);
  return verdict.ok ? "/agents" : `${REFUSED_PATH}?reason=${verdict.reason}`;
}

/** Ends the Supabase session (at Supabase and in the cookies). */
export async function signOutSupabase(jar: CookieJar) {
  const config = supabaseAuthConfig();
  if (config) await (await supabaseClient(config, jar)).auth.signOut();
}

/** Asks Supabase who signed in, maps them; a refused user's session is ended at once. */
async function verifiedVerdict(sb: SupabaseClient): Promise<SupabaseVerdict> {
  const { data, error } = await sb.auth.getUser();
  if (error || !data.user) throw new ApiError("unauthorized", "Supabase did not confirm the sign-in");
  const verdict = await mapSupabaseUser(data.user);
  if (!verdict.ok) await sb.auth.signOut();
  else await asSystem((tx) => q.markHqLogin(tx, { id: verdict.user.userId! }));
  return verdict;
}

export function refusalMessage(reason: "unmapped" | "disabled" | "unconfirmed"): string {
  switch (reason) {
    case "disabled":
      return "Your HQ account is disabled. Ask an HQ admin to re-enable it.";
    case "unconfirmed":
      return "Confirm your email address with Supabase first, then sign in again.";
    default:
      return "You signed in, but this account has no access to Memory HQ. Ask an HQ admin to invite your email address.";
  }
}
