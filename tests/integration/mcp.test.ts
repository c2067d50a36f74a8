import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DELETE, GET, MAX_MESSAGES_PER_REQUEST, POST } from "@/app/api/mcp/route";
import { resetConfigForTests } from "@/lib/config";
import { admit } from "@/lib/http/admission";
import { proxy } from "@/proxy";
import { admin, as } from "../helpers/api";
import { createAgent, createClient, rareWord, type TestAgent } from "../helpers/fixtures";
import { TEST_ADMIN_KEY } from "../helpers/setup-env";

const MCP_URL = "http://127.0.0.1/api/mcp";

/** The route handler as `fetch`: the SDK's client speaks HTTP to it without a server. */
const inProcessFetch = async (url: string | URL, init?: RequestInit) => POST(new Request(url, init));

async function connectHttp(key: string): Promise<Client> {
  const client = new Client({ name: "memory-hq-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(MCP_URL), {
      fetch: inProcessFetch,
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

/** A tool's answer: its structured result, or the API's error body of a refusal (its text). */
const json = (result: unknown) => {
  const r = result as { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: unknown };
  return r.isError ? JSON.parse(r.content[0]!.text) : r.structuredContent;
};

/** What every agent client does first: write a memory, keep its scratchpad, recall the memory. */
async function memoryRoundTrip(client: Client, agent: TestAgent, marker: string) {
  const written = await client.callTool({
    name: "memory_write",
    arguments: {
      tier: "core",
      category: "client",
      title: `Pelican Dental prefers ${marker} appointments`,
      content: `Pelican Dental books ${marker} appointments only; never offer afternoons.`,
      confidence: 0.9,
    },
  });
  expect(written.isError ?? false, JSON.stringify(written)).toBe(false);
  const memory = json(written).memory;
  expect(memory).toMatchObject({ agentId: agent.id, tier: "core", title: `Pelican Dental prefers ${marker} appointments` });

  const empty = json(await client.callTool({ name: "scratchpad_read", arguments: {} }));
  const saved = await client.callTool({
    name: "scratchpad_update",
    arguments: { content: `Booking Pelican Dental (${marker})`, expectedVersion: empty.version },
  });
  expect(saved.isError ?? false, JSON.stringify(saved)).toBe(false);
  const pad = json(await client.callTool({ name: "scratchpad_read", arguments: {} }));
  expect(pad).toMatchObject({ type: "working", content: `Booking Pelican Dental (${marker})`, version: empty.version + 1 });

  // a stale version is the API's 409, as a tool error carrying the code and message
  const stale = await client.callTool({ name: "scratchpad_update", arguments: { content: "lost update", expectedVersion: empty.version } });
  expect(stale.isError).toBe(true);
  expect(json(stale).error).toMatchObject({ code: "version_conflict", message: expect.any(String) });

  const found = json(
    await client.callTool({ name: "retrieve", arguments: { message: `Which appointments does Pelican Dental want? ${marker}`, scopes: ["memories"] } }),
  );
  expect(found.items.map((i: { id: string }) => i.id)).toContain(memory.id);
  return memory;
}

const MEMORY_TOOLS = ["memory_write", "retrieve", "scratchpad_read", "scratchpad_update", "boot", "context"];

describe("MCP over Streamable HTTP (POST /api/mcp)", () => {
  it("lists an orchestrator's tools, writes a memory, keeps the scratchpad and retrieves the memory", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const client = await connectHttp(agent.key);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining([...MEMORY_TOOLS, "kb_search", "suggest_fact", "contact_lookup", "log_interaction", "decisions", "record_outcome", "note", "escalate", "soul_read", "daily_write"]));
    // kbAccess read: the knowledge base is searched, not written
    expect(names).not.toContain("kb_write");
    for (const t of tools) expect(t.description!.length).toBeGreaterThan(40);

    const memory = await memoryRoundTrip(client, agent, "morning");
    const listed = await admin.get(`/api/v1/agents/${agent.id}/memories`);
    expect(listed.body.memories.map((m: { id: string }) => m.id)).toContain(memory.id);
    await client.close();
  });

  it("lists kb_write only to agents allowed to write the knowledge base", async () => {
    const writer = await createAgent({ kind: "internal", role: "specialist", kbAccess: "write" });
    const client = await connectHttp(writer.key);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("kb_write");
    const created = await client.callTool({
      name: "kb_write",
      arguments: { title: `Callback etiquette ${writer.id}`, content: "Call back within the hour.", category: "best-practice" },
    });
    expect(json(created).entry).toMatchObject({ title: `Callback etiquette ${writer.id}`, createdBy: writer.name });
    await client.close();
  });

  it("escalates to HQ: the escalation is raised as the API raises it, and a captured fix comes back as knownFix", async () => {
    const client = await createClient();
    const field = await createAgent({ kind: "field", role: "specialist", clientId: client.id });
    const mcp = await connectHttp(field.key);
    expect((await mcp.listTools()).tools.map((t) => t.name)).toContain("escalate");

    const first = await mcp.callTool({
      name: "escalate",
      arguments: {
        question: "The payment terminal rejects every card with error E42",
        severity: "high",
        context: "Restarted the terminal twice; still E42.",
      },
    });
    expect(first.isError ?? false, JSON.stringify(first)).toBe(false);
    const raised = json(first);
    expect(raised.escalation).toMatchObject({ status: "open", agentId: field.id, clientId: client.id, severity: "high", raisedByName: field.name });
    expect(Array.isArray(raised.similarKnowledge)).toBe(true);
    expect(raised.knownFix).toBeUndefined();
    const listed = await admin.get("/api/v1/escalations?status=open");
    expect(listed.body.escalations.map((e: { id: string }) => e.id)).toContain(raised.escalation.id);

    // HQ resolves it and captures the fix; the same issue raised again is answered with that fix first
    const resolved = await admin.post(`/api/v1/escalations/${raised.escalation.id}/resolve`, {
      resolution: "E42 means the card reader firmware is outdated.",
      knowledge: {
        title: "Payment terminal rejects every card with error E42",
        content: "Error E42 on the payment terminal: update the card reader firmware from the terminal menu, then restart it.",
        category: "escalation",
        tags: ["payments"],
      },
    });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    const again = json(await mcp.callTool({ name: "escalate", arguments: { question: "Payment terminal rejects all cards with error E42", severity: "medium" } }));
    expect(again.knownFix).toMatchObject({ id: resolved.body.knowledge.id, title: "Payment terminal rejects every card with error E42" });
    expect(again.escalation.knownFixId).toBe(resolved.body.knowledge.id);

    const invalid = await mcp.callTool({ name: "escalate", arguments: { question: "x", severity: "urgent" } });
    expect(invalid.isError).toBe(true);
    await mcp.close();
  });

  it("resolves an escalation: an empty resolution is a tool error, the given fix is published and answers the next one", async () => {
    const client = await createClient();
    const field = await createAgent({ kind: "field", role: "specialist", clientId: client.id });
    const curatorAgent = await createAgent({ kind: "internal", role: "specialist", kbAccess: "write" });
    const fieldMcp = await connectHttp(field.key);
    const hq = await connectHttp(curatorAgent.key);
    expect((await fieldMcp.listTools()).tools.map((t) => t.name)).not.toContain("escalation_resolve");
    expect((await hq.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(["escalations", "escalation_resolve"]));

    const raised = json(await fieldMcp.callTool({ name: "escalate", arguments: { question: "The door intercom app shows error 7731 on login", severity: "high" } }));
    const open = json(await hq.callTool({ name: "escalations", arguments: { status: "open" } }));
    expect(open.escalations.map((e: { id: string }) => e.id)).toContain(raised.escalation.id);

    const empty = await hq.callTool({ name: "escalation_resolve", arguments: { escalationId: raised.escalation.id, resolution: "  " } });
    expect(empty.isError).toBe(true);
    const resolved = await hq.callTool({
      name: "escalation_resolve",
      arguments: { escalationId: raised.escalation.id, resolution: "Error 7731: clear the intercom app's cache, then sign in again." },
    });
    expect(resolved.isError ?? false, JSON.stringify(resolved)).toBe(false);
    const { escalation, knowledge } = json(resolved);
    expect(escalation).toMatchObject({ status: "resolved", knowledgeEntryId: knowledge.id, resolvedByName: curatorAgent.name });
    expect(knowledge.content).toContain("clear the intercom app's cache");

    const again = json(await fieldMcp.callTool({ name: "escalate", arguments: { question: "Intercom app login fails with error 7731", severity: "medium" } }));
    expect(again.knownFix).toMatchObject({ id: knowledge.id });
    expect(again.knownFix.content).toContain("clear the intercom app's cache");
    await fieldMcp.close();
    await hq.close();
  });

  it("gives an isolated agent no tools at all", async () => {
    const isolated = await createAgent({ kind: "internal", role: "isolated" });
    const client = await connectHttp(isolated.key);
    expect((await client.listTools()).tools).toEqual([]);
    const refused = await client.callTool({ name: "memory_write", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/memory_write not found/);
    await client.close();
  });

  it("keeps a field agent to its own client: another client's contact does not exist for it", async () => {
    const mine = await createClient();
    const other = await createClient();
    const contact = await admin.post("/api/v1/contacts", { name: "Dana Other", phone: "+1 555 0100", clientId: other.id });
    expect(contact.status).toBe(201);
    const field = await createAgent({ kind: "field", role: "orchestrator", clientId: mine.id });
    const client = await connectHttp(field.key);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain("kb_write");
    const lookup = await client.callTool({ name: "contact_lookup", arguments: { phone: "+1 555 0100" } });
    expect(lookup.isError).toBe(true);
    expect(json(lookup).error.code).toBe("not_found");
    await client.close();
  });

  it("answers 401 JSON without a key, and refuses an unknown key", async () => {
    const init = { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" };
    const none = await POST(new Request(MCP_URL, init));
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: { code: "unauthorized" } });
    // plain bearer auth: the scheme is named, so a client uses the key as given instead of starting OAuth
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
    const wrong = await POST(new Request(MCP_URL, { ...init, headers: { ...init.headers, authorization: "Bearer mhq_not_a_real_key_000000000000" } }));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
    expect(await wrong.json()).toEqual({ error: { code: "unauthorized", message: "Unknown or revoked API key" } });
    const hq = await POST(new Request(MCP_URL, { ...init, headers: { ...init.headers, authorization: `Bearer ${TEST_ADMIN_KEY}` } }));
    expect(hq.status).toBe(403);
  });

  it("lists decisions awaiting an outcome; a second outcome for one is refused and changes nothing", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const client = await connectHttp(agent.key);
    const decide = async (title: string) =>
      json(
        await client.callTool({
          name: "memory_write",
          arguments: { tier: "learning", category: "decision", title, confidence: 0.8, decisionContext: { reasoning: `Because ${title}` } },
        }),
      ).memory.id as string;
    const scored = await decide(`Book the ${rareWord()} crew for Mondays`);
    const open = await decide(`Quote the ${rareWord()} job by phone`);
    const outcome = { decisionId: scored, result: "Mondays filled up", success: true };
    expect((await client.callTool({ name: "record_outcome", arguments: outcome })).isError).toBeFalsy();
    const again = await client.callTool({ name: "record_outcome", arguments: { ...outcome, result: "A different story" } });
    expect(again.isError).toBe(true);
    expect(json(again).error).toMatchObject({ code: "conflict" });
    const ids = async (args: Record<string, unknown>) => json(await client.callTool({ name: "decisions", arguments: args })).memories.map((m: { id: string }) => m.id);
    expect(await ids({ outcome: "awaiting" })).toEqual([open]);
    expect(await ids({ outcome: "worked" })).toEqual([scored]);
    expect(await ids({})).toEqual([open, scored]);
    const stored = await admin.get(`/api/v1/memories/${scored}`);
    expect(stored.body.memory.outcome).toMatchObject({ result: "Mondays filled up", success: true });
    await client.close();
  });

  it("records an agent's memory write in the audit log as the API does", async () => {
    const agent = await createAgent({ kind: "internal", role: "manager" });
    const client = await connectHttp(agent.key);
    const created = await client.callTool({ name: "suggest_fact", arguments: { contactId: "00000000-0000-4000-8000-000000000000", key: "x", value: "y", confidence: 0.9 } });
    expect(json(created).error.code).toBe("not_found");
    const contact = await admin.post("/api/v1/contacts", { name: "Ria Audit", phone: "+1 555 0199" });
    const suggestion = await client.callTool({
      name: "suggest_fact",
      arguments: { contactId: contact.body.contact.id, key: "preferred_time", value: "mornings", confidence: 0.8 },
    });
    const id = json(suggestion).suggestion.id;
    const audit = await admin.get("/api/v1/audit?action=suggestion.create&limit=20");
    expect(audit.body.entries.find((e: { targetId: string }) => e.targetId === id)).toMatchObject({ actorType: "agent", actorName: agent.name });
    await client.close();
  });
});

const READ_TOOLS = ["retrieve", "scratchpad_read", "soul_read", "daily_read", "boot", "context", "kb_search", "contact_lookup", "decisions", "escalations", "escalation_draft"];

type JsonSchema = { type?: string; properties?: Record<string, JsonSchema>; items?: JsonSchema; enum?: string[]; maxLength?: number; maxItems?: number };
const toolNamed = (tools: { name: string }[], name: string) => {
  const t = tools.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t as { name: string; inputSchema: JsonSchema; outputSchema?: JsonSchema; title?: string; description?: string; annotations?: Record<string, unknown> };
};

/** A raw JSON-RPC POST, as a client that does not use the SDK sends it. */
const rpc = (key: string | null, body: string) =>
  POST(
    new Request(MCP_URL, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body,
    }),
  );

describe("MCP as a client outside the repository sees it", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetConfigForTests();
  });

  it("offers no OAuth discovery: /.well-known/oauth-* and OAuth's default endpoints answer 404 JSON, not the sign-in page", async () => {
    for (const path of [
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/api/mcp",
      "/.well-known/oauth-authorization-server",
      "/.well-known/oauth-authorization-server/api/mcp",
      "/.well-known/openid-configuration",
      // where an OAuth client turns when no metadata is published
      "/register",
      "/token",
      "/authorize",
    ]) {
      const res = await proxy(new NextRequest(new URL(path, "http://localhost:3000")));
      expect(res.status, path).toBe(404);
      expect(res.headers.get("location"), path).toBeNull();
      expect(await res.json(), path).toMatchObject({ error: { code: "not_found" } });
    }
  });

  it("answers GET and DELETE with 405 and Allow, and other methods the same way in front of the route", async () => {
    for (const handler of [GET, DELETE]) {
      const res = await handler(new Request(MCP_URL));
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST, OPTIONS");
      expect(await res.json()).toMatchObject({ error: { code: "method_not_allowed" } });
    }
    const put = await proxy(new NextRequest(new URL("/api/mcp", "http://localhost:3000"), { method: "PUT" }));
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("POST, OPTIONS");
  });

  it("answers params that do not fit the method with -32602 Invalid params naming the field, never an internal error", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const answer = async (body: unknown) => {
      const res = await rpc(agent.key, JSON.stringify(body));
      expect(res.status).toBe(200);
      return res.json();
    };
    const cases: [method: string, params: unknown, field: RegExp][] = [
      // tools/call's params are checked by the SDK's server itself, which names the path as a list
      ["tools/call", undefined, /params/],
      ["tools/call", { name: "retrieve", arguments: "find the boiler" }, /"arguments"/],
      ["tools/call", { name: 42 }, /"name"/],
      ["resources/read", { uri: 123 }, /params\.uri/],
      ["prompts/get", {}, /params\.name/],
    ];
    for (const [method, params, field] of cases) {
      const reply = await answer({ jsonrpc: "2.0", id: 7, method, ...(params === undefined ? {} : { params }) });
      expect(reply, `${method} ${JSON.stringify(params)}`).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32602 } });
      expect(reply.error.message).toMatch(new RegExp(`Invalid (params for ${method}|${method} request)`));
      expect(reply.error.message).toMatch(field);
    }
    // in a batch the others are answered as usual
    const batch = await answer([
      { jsonrpc: "2.0", id: 1, method: "prompts/get", params: {} },
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
    ]);
    expect(batch.find((m: { id: number }) => m.id === 1).error.code).toBe(-32602);
    expect(batch.find((m: { id: number }) => m.id === 2).result.tools.length).toBeGreaterThan(0);
    // params that fit still work through the same registration
    const listed = await answer({ jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "memory-hq://documents/soul" } });
    expect(listed.result.contents[0]).toMatchObject({ uri: "memory-hq://documents/soul", mimeType: "text/markdown" });
  });

  it("annotates every tool and describes its answer; capabilities announce only what exists", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator", kbAccess: "write" });
    const client = await connectHttp(agent.key);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(19);
    for (const t of tools) {
      expect(t.title, t.name).toMatch(/\w/);
      expect(t.annotations, t.name).toMatchObject({
        readOnlyHint: READ_TOOLS.includes(t.name),
        destructiveHint: expect.any(Boolean),
        idempotentHint: expect.any(Boolean),
      });
      if (READ_TOOLS.includes(t.name)) expect(t.annotations!.destructiveHint, t.name).toBe(false);
      expect(t.outputSchema?.type, t.name).toBe("object");
    }
    expect(toolNamed(tools, "scratchpad_update").annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(toolNamed(tools, "memory_write").annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    // portable spellings (MCP Inspector's --strict check): nullable values as anyOf, never a type array
    expect(JSON.stringify(tools)).not.toMatch(/"type":\[/);
    // the contracts' limits are in the schemas
    expect(toolNamed(tools, "scratchpad_update").inputSchema.properties!.content!.maxLength).toBe(2000);
    expect(toolNamed(tools, "log_conversation").inputSchema.properties!.interactions!.maxItems).toBe(500);
    expect(toolNamed(tools, "memory_write").inputSchema.properties!.title!.maxLength).toBe(200);

    const capabilities = client.getServerCapabilities()!;
    expect(capabilities.tools).toEqual({});
    expect(capabilities.resources).toEqual({});
    expect(capabilities.prompts).toEqual({});
    await client.close();
  });

  it("validates structured results against the output schemas it lists, and keeps the text short", async () => {
    const agent = await createAgent({ kind: "internal", role: "manager" });
    const client = await connectHttp(agent.key);
    const { tools } = await client.listTools();
    const validator = new AjvJsonSchemaValidator();
    const calls: [string, Record<string, unknown>][] = [
      ["memory_write", { tier: "core", category: "client", title: "Harbor Vets closes at noon on Fridays", confidence: 0.9 }],
      ["retrieve", { message: "When does Harbor Vets close on Fridays?", scopes: ["memories"] }],
      ["scratchpad_read", {}],
      ["boot", {}],
      ["kb_search", { q: "refund" }],
      ["decisions", {}],
    ];
    for (const [name, args] of calls) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError ?? false, `${name}: ${JSON.stringify(result.content)}`).toBe(false);
      const check = validator.getValidator(toolNamed(tools, name).outputSchema as never)(result.structuredContent);
      expect(check.valid, `${name}: ${check.errorMessage}`).toBe(true);
      const text = (result.content as { type: string; text: string }[])[0]!;
      expect(text.type).toBe("text");
      // a line for a person, not the payload again
      expect(text.text).not.toBe(JSON.stringify(result.structuredContent));
    }
    const found = await client.callTool({ name: "retrieve", arguments: { message: "When does Harbor Vets close on Fridays?", scopes: ["memories"] } });
    expect((found.content as { text: string }[])[0]!.text).toMatch(/Harbor Vets/);
    await client.close();
  });

  it("offers a field agent only the scopes its role may use, and refuses the others as the schema says", async () => {
    const owner = await createClient();
    const field = await createAgent({ kind: "field", role: "specialist", clientId: owner.id });
    const client = await connectHttp(field.key);
    const { tools } = await client.listTools();
    expect(toolNamed(tools, "retrieve").inputSchema.properties!.scopes!.items!.enum).toEqual(["memories", "documents", "knowledge"]);
    // and its description promises only what it may search
    expect(toolNamed(tools, "retrieve").description).toContain("(your memories and documents, the HQ knowledge base)");
    expect(toolNamed(tools, "retrieve").description).toContain("(memories, documents, knowledge)");
    expect(toolNamed(tools, "retrieve").description).not.toMatch(/team|conversations/);
    expect(toolNamed(tools, "memory_write").inputSchema.properties!.scope!.enum).toEqual(["agent"]);
    const refused = await client.callTool({ name: "retrieve", arguments: { message: "what does the team know?", scopes: ["team"] } });
    expect(refused.isError).toBe(true);
    expect(json(refused).error).toMatchObject({ code: "validation_failed" });
    const teamWrite = await client.callTool({
      name: "memory_write",
      arguments: { tier: "core", category: "client", title: "Shared?", confidence: 0.9, scope: "team" },
    });
    expect(json(teamWrite).error).toMatchObject({ code: "validation_failed" });
    await client.close();

    // internal agents: the team scope; conversations only for managers and orchestrators
    const specialist = await connectHttp((await createAgent({ kind: "internal", role: "specialist" })).key);
    const internal = (await specialist.listTools()).tools;
    expect(toolNamed(internal, "retrieve").inputSchema.properties!.scopes!.items!.enum).toEqual(["memories", "documents", "team", "knowledge"]);
    expect(toolNamed(internal, "memory_write").inputSchema.properties!.scope!.enum).toEqual(["agent", "team"]);
    await specialist.close();
    // a field orchestrator or manager may read its client's conversations, but is not offered them as a
    // scope: without scopes the smart trigger searches them when a question calls for them
    const orchestrator = await createAgent({ kind: "field", role: "orchestrator", clientId: owner.id });
    const fieldOrchestrator = await connectHttp(orchestrator.key);
    const fo = (await fieldOrchestrator.listTools()).tools;
    expect(toolNamed(fo, "retrieve").inputSchema.properties!.scopes!.items!.enum).toEqual(["memories", "documents", "knowledge"]);
    expect(toolNamed(fo, "retrieve").description).toContain("your client's conversations when a question calls for them");
    expect(toolNamed(internal, "retrieve").description).toContain("(your memories and documents, the team's shared knowledge, the HQ knowledge base)");
    const named = await fieldOrchestrator.callTool({ name: "retrieve", arguments: { message: "what did the caller say?", scopes: ["interactions"] } });
    expect(json(named).error).toMatchObject({ code: "validation_failed" });
    const word = `harbor${Date.now().toString(36)}`;
    expect((await as(orchestrator.key).post("/api/v1/interactions", { channel: "sms", direction: "inbound", content: `The ${word} gate code changed to 4417` })).status).toBe(201);
    const heard = json(await fieldOrchestrator.callTool({ name: "retrieve", arguments: { message: `What did we hear about the ${word} gate code?` } }));
    expect(heard.scopes).toContain("interactions");
    expect(heard.items.map((i: { content: string }) => i.content).join(" ")).toContain(word);
    await fieldOrchestrator.close();
  });

  it("lists the agent's documents as resources and boot as a prompt, and reads them", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const client = await connectHttp(agent.key);
    await client.callTool({ name: "soul_write", arguments: { content: "I am the front desk of Harbor Vets." } });
    await client.callTool({ name: "scratchpad_update", arguments: { content: "Rebooking Friday appointments" } });

    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(["memory-hq://documents/soul", "memory-hq://documents/working"]));
    const today = uris.find((u) => u.startsWith("memory-hq://documents/daily/"));
    expect(today).toMatch(/^memory-hq:\/\/documents\/daily\/\d{4}-\d{2}-\d{2}$/);
    const soul = await client.readResource({ uri: "memory-hq://documents/soul" });
    expect(soul.contents[0]).toMatchObject({ uri: "memory-hq://documents/soul", mimeType: "text/markdown", text: "I am the front desk of Harbor Vets." });
    expect((await client.readResource({ uri: today! })).contents[0]).toMatchObject({ text: "" });
    await expect(client.readResource({ uri: "memory-hq://documents/diary" })).rejects.toThrow(/not found/);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(["memory-hq://documents/daily/{date}"]);

    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["boot"]);
    // an unknown prompt is invalid params, as MCP's prompts specify; an unknown resource is resource-not-found
    await expect(client.getPrompt({ name: "nope" })).rejects.toMatchObject({ code: -32602 });
    await expect(client.readResource({ uri: "memory-hq://documents/nope" })).rejects.toMatchObject({ code: -32002 });
    const boot = await client.getPrompt({ name: "boot" });
    const text = (boot.messages[0]!.content as { type: string; text: string }).text;
    expect(text).toContain("I am the front desk of Harbor Vets.");
    expect(text).toContain("Rebooking Friday appointments");
    expect(text).toContain("LOCKED CONSTANTS");
    await client.close();

    // an isolated agent may read none of it: nothing is announced
    const isolated = await connectHttp((await createAgent({ kind: "internal", role: "isolated" })).key);
    expect(isolated.getServerCapabilities()).not.toHaveProperty("resources");
    expect(isolated.getServerCapabilities()).not.toHaveProperty("prompts");
    await isolated.close();
  });

  it("refuses a body over MAX_BODY_BYTES with 413 before parsing it, and more than the cap of messages in one request", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "scratchpad_update", arguments: { content: "x".repeat(1_500_000) } },
    });
    const tooLarge = await rpc(agent.key, big);
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ error: { code: "payload_too_large" } });
    // not JSON at all: still refused by size first, nothing is parsed
    const garbage = await rpc(agent.key, "{".repeat(10) + "x".repeat(1_100_000));
    expect(garbage.status).toBe(413);

    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list", params: {} });
    const batch = Array.from({ length: MAX_MESSAGES_PER_REQUEST + 1 }, (_, i) => call(i + 1));
    const refused = await rpc(agent.key, JSON.stringify(batch));
    expect(refused.status).toBe(413);
    expect((await refused.json()).error.message).toMatch(/at most 20 JSON-RPC messages/);
  });

  it("waits in the API's admission queue: 429 with Retry-After when the queue is full", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    vi.stubEnv("ADMISSION_CONCURRENCY", "1");
    vi.stubEnv("ADMISSION_QUEUE", "1");
    resetConfigForTests();
    let open!: () => void;
    const held = new Promise<void>((resolve) => (open = resolve));
    const first = admit(new Request("http://test/api/v1/agents"), async () => (await held, new Response("a")));
    const second = admit(new Request("http://test/api/v1/agents"), async () => new Response("b"));
    try {
      const res = await rpc(agent.key, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }));
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await res.json()).toMatchObject({ error: { code: "rate_limited" } });
    } finally {
      open();
      await Promise.all([first, second]);
    }
  });
});

// The bridge is a separate process: it needs a server to talk to, so the route handler is served over HTTP
// here, on a port the system picks (parallel runs never collide).
let BRIDGE_PORT = 0;

describe("the stdio bridge (packages/memory-hq-client/bin/memory-hq-mcp.mjs)", () => {
  let server: Server;
  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const answer =
        req.method === "POST" && req.url === "/api/mcp"
          ? await POST(new Request(`http://127.0.0.1:${BRIDGE_PORT}${req.url}`, { method: "POST", headers, body: Buffer.concat(chunks) }))
          : new Response(JSON.stringify({ error: { code: "method_not_allowed", message: "POST only" } }), { status: 405 });
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    BRIDGE_PORT = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const spawnBridge = (key: string) =>
    new StdioClientTransport({
      command: process.execPath,
      args: [path.resolve(__dirname, "../../packages/memory-hq-client/bin/memory-hq-mcp.mjs")],
      env: { PATH: process.env.PATH ?? "", MEMORY_HQ_URL: `http://127.0.0.1:${BRIDGE_PORT}`, MEMORY_HQ_KEY: key },
      stderr: "pipe",
    });

  it("passes the same test: role-scoped tools, memory write, scratchpad, retrieval", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const client = new Client({ name: "memory-hq-bridge-test", version: "1.0.0" });
    await client.connect(spawnBridge(agent.key));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(MEMORY_TOOLS));
    expect(names).not.toContain("kb_write");
    await memoryRoundTrip(client, agent, "evening");
    await client.close();
  });

  it("gives an isolated agent no tools through the bridge either", async () => {
    const isolated = await createAgent({ kind: "internal", role: "isolated" });
    const client = new Client({ name: "memory-hq-bridge-test", version: "1.0.0" });
    await client.connect(spawnBridge(isolated.key));
    expect((await client.listTools()).tools).toEqual([]);
    await client.close();
  });

  it("exits with a message when the key is refused", async () => {
    const transport = spawnBridge("mhq_not_a_real_key_000000000000");
    const client = new Client({ name: "memory-hq-bridge-test", version: "1.0.0" });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    await expect(client.connect(transport)).rejects.toThrow();
    expect(stderr).toMatch(/cannot reach .*\/api\/mcp/);
  });
});
