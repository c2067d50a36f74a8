import { z } from "zod";
import { apiViews, defineContract, idParam, timestamp } from "@/lib/http/contract";
import {
  acceptInviteBody,
  hqRole,
  inviteUserBody,
  loginBody,
  magicLinkBody,
  oauthQuery,
  setupBody,
  supabaseCallbackQuery,
  updateUserBody,
} from "./schemas";

/** The signed-in HQ user as the session reports it. */
export const sessionUserView = z
  .object({
    type: z.literal("hq"),
    userId: z.uuid().nullable(),
    name: z.string(),
    email: z.string().nullable(),
    role: hqRole,
  })
  .strict().register(apiViews, { id: "SessionUser" });

export const hqUserView = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string(),
    role: hqRole,
    invitePending: z.boolean(),
    disabledAt: timestamp.nullable(),
    lastLoginAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .strict().register(apiViews, { id: "HqUser" });

export const inviteResultView = z
  .object({ user: hqUserView, inviteToken: z.string(), invitePath: z.string(), expiresInHours: z.number() })
  .strict();

const signedIn = z.object({ user: sessionUserView }).strict();

export const authContracts = {
  session: defineContract({
    id: "auth.session",
    method: "GET", path: "/api/v1/auth/session", permission: null, summary: "Current HQ user and whether setup is needed",
    response: z.object({ needsSetup: z.boolean(), user: sessionUserView.nullable() }).strict(),
  }),
  setup: defineContract({
    id: "auth.setup",
    errors: [
      { code: "conflict", when: "An administrator already exists: sign in instead." },
    ],
    method: "POST", path: "/api/v1/auth/setup", permission: null, summary: "Create the first HQ admin (only while none exists) and sign in",
    body: setupBody, response: signedIn, status: 201,
  }),
  login: defineContract({
    id: "auth.login",
    method: "POST", path: "/api/v1/auth/login", permission: null, summary: "Sign in (sets the session cookie)",
    body: loginBody, response: signedIn,
  }),
  logout: defineContract({
    id: "auth.logout",
    method: "POST", path: "/api/v1/auth/logout", permission: null, summary: "Sign out",
    response: z.object({ signedOut: z.literal(true) }).strict(),
  }),
  acceptInvite: defineContract({
    id: "auth.acceptInvite",
    method: "POST", path: "/api/v1/auth/accept-invite", permission: null, summary: "Accept an invitation, set a password and sign in",
    body: acceptInviteBody, response: signedIn,
  }),
  listUsers: defineContract({
    id: "auth.listUsers",
    method: "GET", path: "/api/v1/hq-users", permission: "users.manage", summary: "List HQ users",
    response: z.object({ users: z.array(hqUserView) }).strict(),
  }),
  inviteUser: defineContract({
    id: "auth.inviteUser",
    errors: [
      { code: "conflict", when: "The email already has an HQ account (one still invited: details.userId, for a new link)." },
    ],
    method: "POST", path: "/api/v1/hq-users", permission: "users.manage", summary: "Invite an HQ user (the invite token is shown once)",
    body: inviteUserBody, response: inviteResultView, status: 201,
  }),
  reinviteUser: defineContract({
    id: "auth.reinviteUser",
    errors: [
      { code: "conflict", when: "The user accepted the invitation already, or is disabled (enable them first)." },
    ],
    method: "POST", path: "/api/v1/hq-users/{id}/invitation", permission: "users.manage",
    summary: "Issue a new invitation link to a user who has not accepted one (the earlier link stops working; the token is shown once)",
    params: z.object({ id: idParam("User") }).strict(), response: inviteResultView, status: 201,
  }),
  updateUser: defineContract({
    id: "auth.updateUser",
    errors: [
      { code: "conflict", when: "The change would leave HQ without an active admin." },
    ],
    method: "PATCH", path: "/api/v1/hq-users/{id}", permission: "users.manage", summary: "Change role or name, disable or re-enable an HQ user (disabling cancels an unaccepted invitation's link)",
    params: z.object({ id: idParam("User") }).strict(), body: updateUserBody,
    response: z.object({ user: hqUserView }).strict(),
  }),
  supabasePassword: defineContract({
    id: "auth.supabasePassword",
    method: "POST", path: "/api/v1/auth/supabase/password", permission: null,
    summary: "Sign in through Supabase Auth with email and password (when configured; 403 with details.reason for users HQ does not map)",
    body: loginBody, response: signedIn,
  }),
  supabaseMagicLink: defineContract({
    id: "auth.supabaseMagicLink",
    method: "POST", path: "/api/v1/auth/supabase/magic-link", permission: null,
    summary: "Email a Supabase Auth sign-in link (same answer for unknown addresses)",
    body: magicLinkBody, response: z.object({ sent: z.literal(true) }).strict(),
  }),
  supabaseOAuth: defineContract({
    id: "auth.supabaseOAuth",
    method: "GET", path: "/api/v1/auth/supabase/oauth", permission: null,
    summary: "Start an OAuth sign-in at Supabase (303 to the provider)", query: oauthQuery, status: 303,
  }),
  supabaseCallback: defineContract({
    id: "auth.supabaseCallback",
    method: "GET", path: "/api/v1/auth/supabase/callback", permission: null,
    summary: "Where magic links and OAuth sign-ins return (303 to the console or the refusal page)",
    query: supabaseCallbackQuery, status: 303,
  }),
};
