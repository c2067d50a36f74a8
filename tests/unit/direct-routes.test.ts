import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDirectRoutes } from "@/server/direct.mjs";

// server/direct.mjs picks a bearer-key call's route file from the build's list and calls the handler of
// the module Next.js loaded; whatever it cannot read, Next.js serves instead (server.mjs falls back to
// Next.js for every call when the list itself cannot be read).

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  vi.restoreAllMocks();
});

/** A build folder with `manifest` as its app-paths-manifest.json and route modules written as given. */
function build(manifest: string, modules: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "mhq-direct-unit-"));
  dirs.push(dir);
  mkdirSync(path.join(dir, "server", "app"), { recursive: true });
  writeFileSync(path.join(dir, "server", "app-paths-manifest.json"), manifest);
  for (const [file, text] of Object.entries(modules)) writeFileSync(path.join(dir, "server", file), text);
  return dir;
}

const routeTemplate = (p: string) => (/^\/api\/v1\/agents\/[^/]+$/.test(p) ? "/api/v1/agents/{agentId}" : p === "/api/v1/agents" ? "/api/v1/agents" : undefined);
const makeRequest = (url: string, init: RequestInit) => new Request(url, init);

describe("bearer-key calls straight to their route handler (server/direct.mjs)", () => {
  it("throws when the build's route list cannot be read, so the server serves everything through Next.js", () => {
    expect(() => createDirectRoutes({ distDir: build("{not json"), routeTemplate, makeRequest })).toThrow();
    expect(() => createDirectRoutes({ distDir: "/nonexistent-build", routeTemplate, makeRequest })).toThrow();
  });

  it("finds the handler and its params, and leaves to Next.js what it does not serve or cannot read", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const agentRoute = `module.exports = { routeModule: { userland: { GET: async () => new Response("one") }, ensureUserland: async () => {} } };`;
    const dir = build(JSON.stringify({ "/api/v1/agents/[agentId]/route": "app/agent.js", "/api/v1/agents/route": "app/agents.js" }), {
      "app/agent.js": agentRoute,
      // not an app route module (a Next.js release that changed its internals): Next.js serves it
      "app/agents.js": "module.exports = {};",
    });
    const routes = createDirectRoutes({ distDir: dir, routeTemplate, makeRequest });
    const found = await routes.lookup("GET", "/api/v1/agents/a%20b");
    expect(found?.params).toEqual({ agentId: "a b" });
    expect(await (await found!.handler(new Request("http://x/"), { params: Promise.resolve({}) })).text()).toBe("one");
    expect(await routes.lookup("POST", "/api/v1/agents/x")).toBeNull(); // no such export
    expect(await routes.lookup("HEAD", "/api/v1/agents/x")).toBeNull(); // Next.js's own
    expect(await routes.lookup("GET", "/api/v1/agents/x/")).toBeNull(); // Next.js redirects it
    expect(await routes.lookup("GET", "/api/v1/auth/session")).toBeNull(); // the cookie routes
    expect(await routes.lookup("GET", "/api/v1/agents")).toBeNull();
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining("served through Next.js (no app route module in it)"));
  });
});
