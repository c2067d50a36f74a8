import { NextRequest } from "next/server";
import { TEST_ADMIN_KEY } from "./setup-env";

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<string, Handler>>;

// Every route file of the app, found the way Next.js finds them: by folder.
const modules = import.meta.glob<RouteModule>("/app/api/**/route.ts");

const routes = Object.keys(modules)
  .map((file) => {
    const segments = file.replace(/^\/app/, "").replace(/\/route\.ts$/, "").split("/").filter(Boolean);
    const names: string[] = [];
    const pattern = segments
      .map((s) => {
        const m = /^\[(\w+)\]$/.exec(s);
        if (!m) return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(m[1]!);
        return "([^/]+)";
      })
      .join("/");
    return { file, regex: new RegExp(`^/${pattern}$`), names };
  })
  // static segments win over dynamic ones, as in Next.js
  .sort((a, b) => a.names.length - b.names.length);

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  key?: string | null;
  cookie?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** The app's route handlers as `fetch`: clients (the TypeScript client, MCP) talk to them without a server. */
export async function handlerFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input);
  const match = routes.find((r) => r.regex.test(url.pathname));
  if (!match) return new Response(JSON.stringify({ error: { code: "not_found", message: "No such route" } }), { status: 404 });
  const handler = (await modules[match.file]!())[init.method ?? "GET"];
  if (!handler) return new Response(JSON.stringify({ error: { code: "method_not_allowed", message: "Method not allowed" } }), { status: 405 });
  const values = match.regex.exec(url.pathname)!.slice(1);
  const params = Object.fromEntries(match.names.map((n, i) => [n, decodeURIComponent(values[i]!)]));
  return handler(new NextRequest(url, init as ConstructorParameters<typeof NextRequest>[1]), { params: Promise.resolve(params) });
}

/** Calls the app's real route handler for `path`, as Next.js would. */
export async function api<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
  const url = new URL(path, "http://localhost:3000");
  const match = routes.find((r) => r.regex.test(url.pathname));
  if (!match) throw new Error(`No route file serves ${url.pathname}`);
  const mod = await modules[match.file]!();
  // as Next.js: a route that exports no HEAD answers HEAD with its GET handler, the body dropped
  const handler = mod[method] ?? (method === "HEAD" ? mod.GET : undefined);
  if (!handler) return { status: 405, body: null as T, headers: new Headers() };
  const values = match.regex.exec(url.pathname)!.slice(1);
  const params = Object.fromEntries(match.names.map((n, i) => [n, decodeURIComponent(values[i]!)]));
  const headers = new Headers(opts.headers);
  if (opts.key) headers.set("authorization", `Bearer ${opts.key}`);
  if (opts.cookie) headers.set("cookie", opts.cookie);
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers.set("content-type", "application/json");
  }
  const req = new NextRequest(url, { method, headers, body });
  const res = await handler(req, { params: Promise.resolve(params) });
  const text = method === "HEAD" ? "" : await res.text();
  if (method === "HEAD") await res.body?.cancel();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON (zip, csv): keep the text */
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** Shorthand for calls made with the ADMIN_API_KEY. */
export const admin = {
  get: <T = any>(path: string) => api<T>("GET", path, { key: TEST_ADMIN_KEY }),
  post: <T = any>(path: string, body?: unknown) => api<T>("POST", path, { key: TEST_ADMIN_KEY, body: body ?? {} }),
  put: <T = any>(path: string, body?: unknown) => api<T>("PUT", path, { key: TEST_ADMIN_KEY, body: body ?? {} }),
  patch: <T = any>(path: string, body?: unknown) => api<T>("PATCH", path, { key: TEST_ADMIN_KEY, body: body ?? {} }),
  delete: <T = any>(path: string) => api<T>("DELETE", path, { key: TEST_ADMIN_KEY }),
};

/** Binds calls to one agent key. */
export function as(key: string) {
  return {
    get: <T = any>(path: string) => api<T>("GET", path, { key }),
    post: <T = any>(path: string, body?: unknown) => api<T>("POST", path, { key, body: body ?? {} }),
    put: <T = any>(path: string, body?: unknown) => api<T>("PUT", path, { key, body: body ?? {} }),
    patch: <T = any>(path: string, body?: unknown) => api<T>("PATCH", path, { key, body: body ?? {} }),
    delete: <T = any>(path: string) => api<T>("DELETE", path, { key }),
  };
}
