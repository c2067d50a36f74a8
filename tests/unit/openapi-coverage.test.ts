import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, documentedEndpoints } from "@/lib/http/openapi";

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

const root = path.resolve(__dirname, "../..");
// the MCP endpoint speaks JSON-RPC (Model Context Protocol) and the metrics endpoint Prometheus's text
// format, not this REST API
const NOT_REST = new Set(["POST /api/mcp", "GET /api/mcp", "DELETE /api/mcp", "GET /api/metrics"]);

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
      return [...source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)]
        .map((m) => `${m[1]} ${apiPath}`)
        .filter((op) => !NOT_REST.has(op));
    });
    const documented = documentedEndpoints().map((e) => `${e.method} ${e.path}`);
    expect([...documented].sort()).toEqual([...actual].sort());
  });

  it("describes the response body of at least 90% of operations", () => {
    const doc = buildOpenApiDocument();
    const ops = Object.values(doc.paths).flatMap((byMethod) => Object.values(byMethod)) as {
      responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
    }[];
    const described = ops.filter((op) =>
      Object.entries(op.responses).some(
        ([status, r]) => status !== "default" && Object.values(r.content ?? {}).some((c) => c.schema && Object.keys(c.schema).length > 0),
      ),
    );
    expect(ops.length).toBeGreaterThan(70);
    expect(described.length / ops.length).toBeGreaterThanOrEqual(0.9);
  });

  it("sends dates as ISO strings and keeps response objects closed", () => {
    const doc = buildOpenApiDocument() as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: Record<string, unknown> }> }> }>>;
    };
    const agent = doc.paths["/api/v1/agents/{agentId}"]!.get!.responses["200"]!.content["application/json"]!.schema as {
      properties: { agent: { properties: Record<string, { type?: string; format?: string }>; additionalProperties?: boolean } };
    };
    expect(agent.properties.agent.properties.createdAt).toMatchObject({ type: "string", format: "date-time" });
    expect(agent.properties.agent.additionalProperties).toBe(false);
  });
});
