import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PERMISSION_DESCRIPTIONS } from "@/lib/auth/permission-descriptions";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { ALL_CONTRACTS, api } from "@/lib/contracts";
import { buildOpenApiDocument, TAGS } from "@/lib/http/openapi";
import { REQUEST_EXAMPLES } from "@/lib/http/openapi-examples";

type Op = {
  operationId: string;
  tags: string[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
};

/** Every operation of the document (a path item's summary and description are not operations). */
function operations(doc: ReturnType<typeof buildOpenApiDocument>): Op[] {
  return Object.values(doc.paths).flatMap((item) =>
    Object.entries(item)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([, op]) => op as Op),
  );
}

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
    const documented = ALL_CONTRACTS.map((e) => `${e.method} ${e.path}`);
    expect([...documented].sort()).toEqual([...actual].sort());
  });

  it("describes the response body of at least 90% of operations", () => {
    const doc = buildOpenApiDocument();
    const ops = operations(doc);
    const described = ops.filter((op) =>
      Object.entries(op.responses).some(
        ([status, r]) => /^2/.test(status) && Object.values(r.content ?? {}).some((c) => c.schema && Object.keys(c.schema).length > 0),
      ),
    );
    expect(ops.length).toBeGreaterThan(70);
    expect(described.length / ops.length).toBeGreaterThanOrEqual(0.9);
  });

  it("sends dates as ISO strings and keeps response objects closed", () => {
    const doc = buildOpenApiDocument() as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: Record<string, unknown> }> }> }>>;
      components: { schemas: Record<string, { properties: Record<string, { type?: string; format?: string }>; additionalProperties?: boolean }> };
    };
    const answer = doc.paths["/api/v1/agents/{agentId}"]!.get!.responses["200"]!.content["application/json"]!.schema as {
      properties: { agent: { $ref: string } };
    };
    expect(answer.properties.agent.$ref).toBe("#/components/schemas/Agent");
    const agent = doc.components.schemas.Agent!;
    expect(agent.properties.createdAt).toMatchObject({ type: "string", format: "date-time" });
    expect(agent.additionalProperties).toBe(false);
  });

  it("names each operation by its contract's id, unique, `<domain>.<name>` as the TypeScript client calls it", () => {
    const ids = ALL_CONTRACTS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [domain, contracts] of Object.entries(api)) {
      for (const [name, contract] of Object.entries(contracts)) expect(contract.id).toBe(`${domain}.${name}`);
    }
    const opIds = operations(buildOpenApiDocument()).map((op) => op.operationId);
    expect(new Set(opIds).size).toBe(opIds.length);
    expect(opIds).toEqual(expect.arrayContaining(ids));
  });

  it("tags every operation with a described tag and lists every 4xx it can answer with the error schema", () => {
    const doc = buildOpenApiDocument();
    const tags = new Map(doc.tags.map((t) => [t.name, t.description]));
    expect(Object.keys(api).every((domain) => TAGS[domain])).toBe(true);
    for (const op of operations(doc)) {
      expect(op.tags.length, op.operationId).toBe(1);
      expect(tags.get(op.tags[0]!), op.operationId).toBeTruthy();
      const refusals = Object.keys(op.responses).filter((s) => /^4/.test(s));
      expect(refusals.length, op.operationId).toBeGreaterThan(0);
    }
    const byId = new Map(operations(doc).map((op) => [op.operationId, op]));
    // an agent writing a memory: not signed in, not allowed, bad body, unknown agent, over capacity
    expect(Object.keys(byId.get("memories.write")!.responses)).toEqual(
      expect.arrayContaining(["201", "400", "401", "403", "404", "413", "415", "422", "429"]),
    );
    // a stale expectedVersion is a conflict the contract names
    expect(byId.get("memories.update")!.responses["409"]).toBeDefined();
    // a public read answers neither 401 nor 404
    expect(Object.keys(byId.get("system.health")!.responses).filter((s) => /^4/.test(s))).toEqual(["429"]);
    expect(byId.get("memories.write")!.responses["422"]!.content!["application/json"]!.schema).toEqual({ $ref: "#/components/schemas/Error" });
  });

  it("carries field descriptions from the schemas and names the views as components", () => {
    const doc = buildOpenApiDocument() as unknown as {
      components: { schemas: Record<string, { description?: string; properties?: Record<string, { description?: string }> }> };
    };
    const described = Object.values(doc.components.schemas).flatMap((s) => Object.values(s.properties ?? {})).filter((p) => p.description);
    expect(described.length).toBeGreaterThan(20);
    expect(doc.components.schemas.Memory!.properties!.tier!.description).toMatch(/core/);
    expect(doc.components.schemas.Memory!.description).toBeTruthy();
  });

  it("shows request examples the API accepts", () => {
    const byId = new Map(ALL_CONTRACTS.map((c) => [c.id, c]));
    expect(Object.keys(REQUEST_EXAMPLES).length).toBeGreaterThan(5);
    for (const [id, examples] of Object.entries(REQUEST_EXAMPLES)) {
      const body = byId.get(id)?.body;
      expect(body, id).toBeDefined();
      for (const [name, example] of Object.entries(examples)) {
        const parsed = body!.safeParse(example.value);
        expect(parsed.success, `${id} ${name}: ${parsed.error?.message}`).toBe(true);
      }
    }
  });

  it("says who may call every permission in words", () => {
    expect(Object.keys(PERMISSION_DESCRIPTIONS).sort()).toEqual(Object.keys(PERMISSIONS).sort());
    for (const sentence of Object.values(PERMISSION_DESCRIPTIONS)) expect(sentence).not.toMatch(/\w\.\w/);
  });
});
