/**
 * Where to go after signing in: only a path on this site (`/knowledge/…?tab=x`), never another
 * origin (`//evil.example`, `/\evil.example`, `https://…`), the sign-in pages themselves or the API.
 * Anything else gives null, and the caller falls back to its default page.
 */
export function safeNextPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2000) return null;
  if (!raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) return null;
  // control characters and backslashes are never part of a console address; browsers reinterpret them
  if ([...raw].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f || ch === "\\")) return null;
  let url: URL;
  try {
    url = new URL(raw, "http://console.invalid");
  } catch {
    return null;
  }
  if (url.origin !== "http://console.invalid") return null;
  if (/^\/(login|setup|accept-invite|api)(\/|$)/.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
