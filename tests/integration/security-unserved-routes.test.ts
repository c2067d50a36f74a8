import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { ALL_CONTRACTS } from "@/lib/contracts";
import { proxy } from "@/proxy";

// What Next.js would answer with an HTML 404 page or an empty 405 the API answers in its JSON error
// shape: the proxy in front of /api decides from the endpoint list (the route files, a unit test
// keeps them equal). Verified against `next start` too (see the report of this change).

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const concrete = (path: string) => path.replace(/\{(\w+)\}/g, "3f8e0c9a-0000-4000-8000-000000000001");

async function call(method: string, path: string) {
  const res = await proxy(new NextRequest(new URL(path, "http://localhost:3000"), { method }));
  if (res.headers.get("x-middleware-next")) return null; // passed on to the route handler
  return { status: res.status, allow: res.headers.get("allow"), body: await res.json() };
}

describe("unknown API paths and unsupported methods", () => {
  it("answers 404 not_found in JSON for paths no route serves", async () => {
    for (const path of ["/api/v1/nope", "/api/v1/agents/x/unknown", "/api/v1/contacts/a/b/c/d", "/api/v2/agents", "/api/nothing"]) {
      for (const method of ["GET", "POST", "DELETE"]) {
        const res = await call(method, path);
        expect(res?.status, `${method} ${path}`).toBe(404);
        expect(res!.body.error.code).toBe("not_found");
      }
    }
  });

  it("answers 405 method_not_allowed with Allow for each method a route does not export, and lets the others through", async () => {
    const byPath = new Map<string, Set<string>>();
    for (const e of ALL_CONTRACTS) byPath.set(e.path, (byPath.get(e.path) ?? new Set()).add(e.method));
    let refused = 0;
    for (const [path, methods] of byPath) {
      for (const method of METHODS) {
        const res = await call(method, concrete(path));
        if (methods.has(method)) {
          expect(res, `${method} ${path} must reach its handler`).toBeNull();
        } else {
          refused++;
          expect(res?.status, `${method} ${path}`).toBe(405);
          expect(res!.body.error.code).toBe("method_not_allowed");
          expect(res!.allow!.split(", ").sort()).toEqual(
            [...methods, ...(methods.has("GET") ? ["HEAD"] : []), "OPTIONS"].sort(),
          );
        }
      }
      expect(await call("OPTIONS", concrete(path))).toBeNull();
    }
    expect(refused).toBeGreaterThan(50);
  });

  it("picks the route Next.js picks: a static segment wins over a dynamic one", async () => {
    // /contacts/lookup is its own route (GET only), not /contacts/{id} (GET, PATCH)
    const res = await call("PATCH", "/api/v1/contacts/lookup");
    expect(res?.status).toBe(405);
    expect(res!.allow).toBe("GET, HEAD, OPTIONS");
    expect(await call("PATCH", "/api/v1/contacts/3f8e0c9a-0000-4000-8000-000000000001")).toBeNull();
    expect(await call("GET", "/api/v1/clients/")).toBeNull();
  });

  it("lets the MCP endpoint through: it speaks its own protocol and answers its own methods", async () => {
    for (const method of ["POST", "GET", "DELETE"]) expect(await call(method, "/api/mcp"), method).toBeNull();
    expect((await call("PUT", "/api/mcp"))?.status).toBe(405);
  });
});
