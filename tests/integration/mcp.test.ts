import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/mcp/route";
import { admin } from "../helpers/api";
import { createAgent, createClient, type TestAgent } from "../helpers/fixtures";
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

const json = (result: unknown) => {
  const r = result as { content: { type: string; text: string }[]; isError?: boolean };
  return JSON.parse(r.content[0]!.text);
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
    const wrong = await POST(new Request(MCP_URL, { ...init, headers: { ...init.headers, authorization: "Bearer mhq_not_a_real_key_000000000000" } }));
    expect(wrong.status).toBe(401);
    const hq = await POST(new Request(MCP_URL, { ...init, headers: { ...init.headers, authorization: `Bearer ${TEST_ADMIN_KEY}` } }));
    expect(hq.status).toBe(403);
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

// The bridge is a separate process: it needs a server to talk to, so the route handler is served over HTTP
// here, on a port the system picks (parallel runs never collide).
let BRIDGE_PORT = 0;

describe("the stdio bridge (bin/memory-hq-mcp.mjs)", () => {
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
      args: [path.resolve(__dirname, "../../bin/memory-hq-mcp.mjs")],
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
