import { describe, expect, it } from "vitest";
import { fieldsOf, referencedComponents, type JsonSchema } from "@/components/docs/schema-fields";
import { buildOpenApiDocument } from "@/lib/http/openapi";

// The Docs page reads the OpenAPI document as a person would: fields with descriptions, values and limits.

const doc = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: JsonSchema }> }; responses: Record<string, { content: Record<string, { schema: JsonSchema }> }> }>>;
  components: { schemas: Record<string, JsonSchema> };
};
const components = doc.components.schemas;

describe("the Docs page's field rows", () => {
  it("spell out a memory write's fields with allowed values, limits and the tier rule", () => {
    const body = doc.paths["/api/v1/agents/{agentId}/memories"]!.post!.requestBody.content["application/json"]!.schema;
    const rows = new Map(fieldsOf(body, components).map((r) => [r.name, r]));
    expect(rows.get("tier")).toMatchObject({ required: true, values: ["core", "working", "learning"] });
    expect(rows.get("category")!.description).toMatch(/learning: decision/);
    expect(rows.get("confidence")!.limits).toContain("0.4–1");
    expect(rows.get("title")!.limits).toContain("1–200 characters");
    expect(rows.get("decisionContext.reasoning")).toMatchObject({ required: true, type: "string" });
  });

  it("keep named views as references, listed once", () => {
    const answer = doc.paths["/api/v1/agents/{agentId}/memories"]!.post!.responses["201"]!.content["application/json"]!.schema;
    const rows = fieldsOf(answer, components);
    expect(rows.find((r) => r.name === "memory")).toMatchObject({ type: "Memory", ref: "Memory", required: true });
    expect(referencedComponents(answer, components)).toEqual(expect.arrayContaining(["Memory", "DecisionContext", "Outcome"]));
  });
});
