import "server-only";
import type { User } from "@supabase/supabase-js";
import { recordAudit } from "@/lib/audit/queries";
import { asSystem } from "@/lib/db";
import { claimsFor } from "@/lib/db/caller";
import type { HqCaller, HqRole } from "./caller";
import * as q from "./queries";
import { hasSupabaseSession, supabaseClient, type CookieJar, type SupabaseAuthConfig } from "./supabase-client";

export { hasSupabaseSession, supabaseAuthConfig, supabaseClient, type CookieJar, type SupabaseAuthConfig } from "./supabase-client";

export type SupabaseVerdict =
  | { ok: true; user: HqCaller }
  | { ok: false; reason: "unmapped" | "disabled" | "unconfirmed"; email: string | null };

const ROLES: readonly HqRole[] = ["admin", "curator", "viewer"];

/**
 * Whether a verified Supabase user is an HQ user, and as whom. Mapped are: the address of an HQ
 * user (one who signed in before, has a password, or holds a valid invitation — which this first
 * sign-in uses up) and, failing that, a user whose `app_metadata.mhq_role` names an HQ role (set
 * only with the project's service key, never by the user), who is then added to HQ with that role.
 * The HQ record decides the role from then on, and disabling it refuses the user. Addresses that
 * Supabase has not confirmed are refused: anyone can sign up with someone else's address.
 */
export async function mapSupabaseUser(user: Pick<User, "id" | "email" | "email_confirmed_at" | "app_metadata" | "user_metadata">): Promise<SupabaseVerdict> {
  const email = user.email?.trim() || null;
  if (!email) return { ok: false, reason: "unmapped", email };
  if (!user.email_confirmed_at) return { ok: false, reason: "unconfirmed", email };
  const metaRole = user.app_metadata?.mhq_role;
  const grantedRole = typeof metaRole === "string" && (ROLES as string[]).includes(metaRole) ? (metaRole as HqRole) : null;
  const name = String(user.user_metadata?.full_name ?? user.user_metadata?.name ?? "").slice(0, 200);

  return asSystem(async (tx) => {
    let row = await q.findHqUserForSupabase(tx, { email });
    if (row?.disabledAt) return { ok: false, reason: "disabled", email } as const;
    const audit = async (caller: HqCaller, action: string, id: string, details: Record<string, unknown>) => {
      await tx.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claimsFor(caller))]);
      await recordAudit(tx, { action, targetType: "hq_user", targetId: id, details });
    };
    if (row && !row.active && row.inviteOpen) {
      await q.closeInvite(tx, { id: row.id });
      await audit(asCaller(row), "hq_user.accept_invite", row.id, { via: "supabase", supabaseUserId: user.id });
    } else if (!row || (!row.active && !row.inviteOpen)) {
      if (!grantedRole) return { ok: false, reason: "unmapped", email } as const;
      const id = row?.id ?? (await q.insertSupabaseHqUser(tx, { email, name, role: grantedRole }));
      row = await q.findHqUserForSupabase(tx, { email });
      if (!row) return { ok: false, reason: "unmapped", email } as const;
      if (id) {
        await q.closeInvite(tx, { id: row.id });
        await audit(asCaller(row), "hq_user.provision_supabase", row.id, { role: row.role, supabaseUserId: user.id });
      }
    }
    return { ok: true, user: asCaller(row) } as const;
  });
}

const asCaller = (row: q.SupabaseMappingRow): HqCaller => ({ type: "hq", userId: row.id, name: row.name || row.email, email: row.email, role: row.role });

/**
 * The HQ user behind the request's Supabase session, verified with Supabase Auth (`getUser` asks
 * the Auth server, so a forged, expired or signed-out cookie is never trusted), or why not.
 */
export async function verifySupabaseSession(config: SupabaseAuthConfig, jar: CookieJar): Promise<SupabaseVerdict | null> {
  if (!hasSupabaseSession(jar)) return null;
  const { data, error } = await (await supabaseClient(config, jar)).auth.getUser();
  if (error || !data.user) return null;
  return mapSupabaseUser(data.user);
}
