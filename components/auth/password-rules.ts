// The same rules as lib/auth/schemas.ts, checked in the browser first for quicker feedback.
export const MIN_PASSWORD_LENGTH = 10;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `whose`: "your" on the sign-in and setup forms, "their" where it is someone else's (an invitation). */
export function validateEmail(email: string, whose: "your" | "their" = "your"): string | undefined {
  if (!email.trim()) return `Enter ${whose} email address`;
  if (!EMAIL.test(email.trim())) return "Enter a valid email address";
  return undefined;
}

export function validateNewPassword(password: string, confirm: string): { password?: string; confirm?: string } {
  if (password.length < MIN_PASSWORD_LENGTH) return { password: `Use at least ${MIN_PASSWORD_LENGTH} characters` };
  if (password !== confirm) return { confirm: "The passwords don't match" };
  return {};
}
