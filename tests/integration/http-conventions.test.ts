import { describe, expect, it } from "vitest";
import { admin, api } from "../helpers/api";
import { transport } from "../helpers/db";
import { TEST_ADMIN_KEY } from "../helpers/setup-env";

describe("HTTP conventions", () => {
  it("reports health and the database transport in use", async () => {
    const res = await api("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", database: transport === "pglite" ? "pglite" : "postgres" });
  });

  it("rejects unknown body fields with 422 and never stores them", async () => {
    const res = await admin.post("/api/v1/clients", { name: "Acme", sneaky: true });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("validation_failed");
    expect(res.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ code: "unrecognized_keys" })]));
    const list = await admin.get("/api/v1/clients");
    expect(list.body.clients.map((c: { name: string }) => c.name)).not.toContain("Acme");
  });

  it("answers 413 for a body over the limit and 400 for invalid JSON", async () => {
    const big = await api("POST", "/api/v1/clients", {
      key: TEST_ADMIN_KEY,
      rawBody: JSON.stringify({ name: "x".repeat(1_100_000) }),
      headers: { "content-type": "application/json" },
    });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe("payload_too_large");
    const bad = await api("POST", "/api/v1/clients", {
      key: TEST_ADMIN_KEY,
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: { code: "bad_request", message: expect.any(String) } });
  });

  it("serves an OpenAPI document generated from the zod schemas", async () => {
    const res = await api("GET", "/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    const createAgent = res.body.paths["/api/v1/agents"].post;
    const schema = createAgent.requestBody.content["application/json"].schema;
    expect(schema.properties.kind.enum).toEqual(["internal", "field"]);
    expect(schema.additionalProperties).toBe(false);
  });

  it("creates clients with a slug and answers 409 for a duplicate", async () => {
    const first = await admin.post("/api/v1/clients", { name: "Sunrise Plumbing", triggerTerms: ["water heater", "Water Heater"] });
    expect(first.status).toBe(201);
    expect(first.body.client).toMatchObject({ slug: "sunrise-plumbing", triggerTerms: ["Water Heater"] });
    expect((await admin.post("/api/v1/clients", { name: "Sunrise  Plumbing!" })).status).toBe(409);
  });
});
