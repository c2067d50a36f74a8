import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, ENDPOINTS } from "@/lib/http/openapi";

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

const root = path.resolve(__dirname, "../..");

describe("the OpenAPI document", () => {
  it("documents every route file and exported method, and nothing that does not exist", () => {
    const actual = routeFiles(path.join(root, "app/api")).flatMap((file) => {
      const apiPath =
        "/" +
        path
          .relative(path.join(root, "app"), path.dirname(file))
          .split(path.sep)
          .map((s) => s.replace(/^\[(\w+)\]$/, "{$1}"))
          .join("/");
      const source = readFileSync(file, "utf8");
      return [...source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => `${m[1]} ${apiPath}`);
    });
    const documented = ENDPOINTS.map((e) => `${e.method} ${e.path}`);
    expect([...documented].sort()).toEqual([...actual].sort());
  });

  it("builds a valid-looking OpenAPI 3 document", () => {
    const doc = buildOpenApiDocument();
    expect(doc.openapi).toBe("3.0.3");
    expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
  });
});
