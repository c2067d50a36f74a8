/**
 * Where to go after signing in: only a path on this site (`/knowledge/…?tab=x`), never another
 * origin (`//evil.example`, `/\evil.example`, `https://…`), the sign-in pages themselves or the API.
 * Anything else gives null, and the caller falls back to its default page.
 *
 * The answer is the resolved path (dot segments removed), so the checks apply to it as well as to
 * the raw text: `/.//evil.example`, `/x/..//evil.example` and `/%2e//evil.example` all resolve to
 * `//evil.example`, which a browser reads as another origin.
 */
export function safeNextPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2000) return null;
  if (!isSitePath(raw)) return null;
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
  const resolved = `${url.pathname}${url.search}${url.hash}`;
  return isSitePath(resolved) ? resolved : null;
}

/** A path on this site: one leading slash, not two (`//host`) nor a slash and a backslash (`/\host`). */
const isSitePath = (path: string) => path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\");
