import "server-only";
import type { z } from "zod";
import { recordAudit } from "@/lib/audit/queries";
import { asCaller, asSystem, type Queryable } from "@/lib/db";
import { claimsFor } from "@/lib/db/caller";
import { ApiError, notFound } from "@/lib/http/errors";
import type { Caller, HqCaller } from "./caller";
import * as q from "./queries";
import { createLoginThrottle } from "./login-throttle";
import type { acceptInviteBody, inviteUserBody, loginBody, setupBody, updateUserBody } from "./schemas";
import { hashPassword, randomToken, sha256, verifyPassword } from "./secrets";
import { startSession } from "./session";
import { refuseWhenSupabase } from "./supabase-signin";
import * as uq from "./users-queries";

/** How long an invitation link works. */
export const INVITE_HOURS = 72;
const loginThrottle = createLoginThrottle();

/**
 * What an unknown email, a disabled user or an unaccepted invitation is checked against, so every
 * sign-in costs one scrypt hash with the same parameters and its timing says nothing about which
 * emails have accounts. The hash of a random password that was thrown away: nothing matches it.
 */
export const DUMMY_PASSWORD_HASH =
  "scrypt$32768$8$1$iw8OB7afIUu3p2r2_g5XGA$nqav5Z61EMYhEei2nbj1Jz3QKtSjXJpjrTnZQtwxE_IATDVx2quv-tGC4tBQnWKDYJQaKdeV-ZIdTPtg32hqxw";

export async function needsSetup(): Promise<boolean> {
  return (await asSystem((tx) => q.countHqUsers(tx))) === 0;
}

/** Creates the first admin. Refused once any HQ user exists, even under concurrent attempts. */
export async function setupFirstAdmin(body: z.infer<typeof setupBody>, userAgent: string) {
  refuseWhenSupabase();
  const passwordHash = await hashPassword(body.password);
  const user = await asSystem(async (tx) => {
    await tx.query("select pg_advisory_xact_lock(727275)");
    if ((await q.countHqUsers(tx)) > 0) {
      throw new ApiError("conflict", "An administrator already exists; sign in instead");
    }
    const id = await q.insertHqUser(tx, { email: body.email, name: body.name ?? "", role: "admin", passwordHash });
    const caller: HqCaller = { type: "hq", userId: id, name: body.name || body.email, email: body.email, role: "admin" };
    await withAudit(tx, caller, "hq_user.setup_first_admin", id, { email: body.email });
    return caller;
  });
  return { user, cookie: await startSession(user.userId!, userAgent) };
}

export async function login(body: z.infer<typeof loginBody>, address: string, userAgent: string) {
  refuseWhenSupabase();
  await loginThrottle.attempt(body.email, address);
  const row = await asSystem((tx) => q.findHqUserByEmail(tx, { email: body.email }));
  const usable = row?.passwordHash && !row.disabledAt ? row.passwordHash : null;
  const matches = await verifyPassword(body.password, usable ?? DUMMY_PASSWORD_HASH);
  if (!row || !usable || !matches) throw new ApiError("unauthorized", "Wrong email or password");
  await loginThrottle.succeeded(body.email, address);
  const user: HqCaller = { type: "hq", userId: row.id, name: row.name || row.email, email: row.email, role: row.role };
  return { user, cookie: await startSession(row.id, userAgent) };
}

export async function acceptInvite(body: z.infer<typeof acceptInviteBody>, userAgent: string) {
  refuseWhenSupabase();
  const passwordHash = await hashPassword(body.password);
  const user = await asSystem(async (tx) => {
    const row = await q.findHqUserByInvite(tx, { tokenHash: sha256(body.token) });
    if (!row) throw new ApiError("not_found", "This invitation is unknown, used or expired; ask an admin for a new one");
    await q.setHqUserPassword(tx, { id: row.id, passwordHash, name: body.name });
    const caller: HqCaller = { type: "hq", userId: row.id, name: body.name || row.name || row.email, email: row.email, role: row.role };
    await withAudit(tx, caller, "hq_user.accept_invite", row.id, {});
    return caller;
  });
  return { user, cookie: await startSession(user.userId!, userAgent) };
}

/**
 * The email address a live invitation link was sent to, or null when the link is unknown, used,
 * replaced, expired or its user disabled — so the page can say so before a password is chosen.
 */
export async function invitationEmail(token: string): Promise<string | null> {
  if (!token) return null;
  return (await asSystem((tx) => q.findHqUserByInvite(tx, { tokenHash: sha256(token) })))?.email ?? null;
}

export async function listUsers(caller: Caller) {
  return { users: await asCaller(caller, (tx) => uq.listHqUsers(tx)) };
}

/** Invites a user: the one-time token is returned once, for the admin to pass on. */
export async function inviteUser(caller: Caller, body: z.infer<typeof inviteUserBody>) {
  const token = randomToken(24);
  return asCaller(caller, async (tx) => {
    if (await uq.emailTaken(tx, { email: body.email })) {
      const invited = await uq.invitedUserId(tx, { email: body.email });
      if (invited) {
        throw new ApiError("conflict", `${body.email} is invited already: issue a new link with POST /api/v1/hq-users/${invited}/invitation`, {
          userId: invited,
        });
      }
      throw new ApiError("conflict", `${body.email} already has an HQ account`);
    }
    const id = await uq.insertInvitedUser(tx, {
      email: body.email,
      name: body.name ?? "",
      role: body.role,
      inviteTokenHash: sha256(token),
      inviteHours: INVITE_HOURS,
    });
    await recordAudit(tx, { action: "hq_user.invite", targetType: "hq_user", targetId: id, details: { email: body.email, role: body.role } });
    return invitation(tx, id, token);
  });
}

/** A new invitation link for a user who has not accepted one; the earlier link stops working. */
export async function reinviteUser(caller: Caller, id: string) {
  const token = randomToken(24);
  return asCaller(caller, async (tx) => {
    const user = await uq.getHqUser(tx, { id });
    if (!user) throw notFound("User");
    if (!user.invitePending) throw new ApiError("conflict", `${user.email} accepted the invitation already: they sign in as usual`);
    if (user.disabledAt) throw new ApiError("conflict", `${user.email} is disabled: enable them first, then issue a new link`);
    if (!(await uq.reissueInvite(tx, { id, inviteTokenHash: sha256(token), inviteHours: INVITE_HOURS }))) {
      throw new ApiError("conflict", `${user.email} cannot be invited again just now; reload and try again`);
    }
    await recordAudit(tx, { action: "hq_user.reinvite", targetType: "hq_user", targetId: id, details: { email: user.email, role: user.role } });
    return invitation(tx, id, token);
  });
}

/** What an admin gets once per invitation: the user as they now stand and the link to pass on. */
async function invitation(tx: Queryable, id: string, token: string) {
  return { user: (await uq.getHqUser(tx, { id }))!, inviteToken: token, invitePath: `/accept-invite?token=${token}`, expiresInHours: INVITE_HOURS };
}

export async function updateUser(caller: Caller, id: string, body: z.infer<typeof updateUserBody>) {
  const result = await asCaller(caller, async (tx) => {
    const before = await uq.getHqUser(tx, { id });
    if (!before) throw notFound("User");
    await uq.updateHqUser(tx, { id, ...body });
    // there must always be someone who can manage users and locked constants
    if ((await uq.countActiveAdmins(tx)) === 0) {
      throw new ApiError("conflict", "This would leave HQ without an active admin");
    }
    await recordAudit(tx, { action: "hq_user.update", targetType: "hq_user", targetId: id, details: body });
    return { user: (await uq.getHqUser(tx, { id }))! };
  });
  // the session lookup reads the role afresh on each request; only disabling needs sign-out
  if (body.disabled) await asSystem((tx) => q.deleteSessionsOfUser(tx, { userId: id }));
  return result;
}

async function withAudit(
  tx: Parameters<Parameters<typeof asSystem>[0]>[0],
  caller: HqCaller,
  action: string,
  targetId: string,
  details: Record<string, unknown>,
) {
  // the audit function reads the actor from the claims; set them for this system transaction
  await tx.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claimsFor(caller))]);
  await recordAudit(tx, { action, targetType: "hq_user", targetId, details });
}

