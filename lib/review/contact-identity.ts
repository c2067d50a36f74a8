/**
 * Normalising the ways people type phone numbers and email addresses, so that a lookup finds the
 * contact however the number was written ("(863) 555-0142", "863.555.0142", "+1 863 555 0142").
 * Pure functions.
 */

/** Numbers without a country code are read as North American (+1), the demo's market. */
export const DEFAULT_COUNTRY_CODE = "1";

/** E.164 (`+18635550142`), or null when the input cannot be a phone number. */
export function normalizePhone(input: string): string | null {
  const trimmed = input.trim();
  if (!/^[+\d\s().-]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, "");
  let e164: string;
  if (trimmed.startsWith("+")) e164 = `+${digits}`;
  else if (digits.startsWith("00")) e164 = `+${digits.slice(2)}`;
  else if (digits.length === 10) e164 = `+${DEFAULT_COUNTRY_CODE}${digits}`;
  else if (digits.length === 11 && digits.startsWith(DEFAULT_COUNTRY_CODE)) e164 = `+${digits}`;
  else return null;
  return /^\+[1-9]\d{6,14}$/.test(e164) ? e164 : null;
}

/** Trimmed and lower-cased: addresses compare case-insensitively. */
export function normalizeEmail(input: string): string {
  return input.trim().toLowerCase();
}
