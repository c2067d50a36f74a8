import { z } from "zod";

export const hqRole = z.enum(["admin", "curator", "viewer"]);
const email = z.string().trim().toLowerCase().email().max(200);
const password = z.string().min(10, "use at least 10 characters").max(200);

export const setupBody = z.object({ email, password, name: z.string().trim().max(100).optional() }).strict();
export const loginBody = z.object({ email, password: z.string().min(1).max(200) }).strict();
export const acceptInviteBody = z
  .object({ token: z.string().min(20).max(200), password, name: z.string().trim().max(100).optional() })
  .strict();
export const inviteUserBody = z
  .object({ email, role: hqRole, name: z.string().trim().max(100).optional() })
  .strict();
export const updateUserBody = z
  .object({ role: hqRole.optional(), name: z.string().trim().max(100).optional(), disabled: z.boolean().optional() })
  .strict();

export const magicLinkBody = z.object({ email }).strict();
export const oauthQuery = z.object({ provider: z.string().regex(/^[a-z0-9_-]{2,40}$/) }).strict();
export const supabaseCallbackQuery = z
  .object({
    code: z.string().max(500).optional(),
    token_hash: z.string().max(500).optional(),
    type: z.enum(["email", "magiclink", "signup", "invite", "recovery", "email_change"]).optional(),
    error: z.string().max(500).optional(),
    error_description: z.string().max(1000).optional(),
    error_code: z.string().max(200).optional(),
  })
  .passthrough();
