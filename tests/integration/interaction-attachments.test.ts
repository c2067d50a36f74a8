// Attachments on interactions: what a photo, file or voice note in a message showed. Limits like
// every field (the API and the database refuse the same), stored and listed as sent, their captions
// searched with the turn, and readable by exactly those who may read the turn.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { POST } from "@/app/api/mcp/route";
import type { AgentCaller } from "@/lib/auth/caller";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { as } from "../helpers/api";
import { createAgent, createClient, rareWord, type TestAgent } from "../helpers/fixtures";

const turn = (content: string, over: Record<string, unknown> = {}) => ({
  channel: "chat",
  direction: "inbound",
  speaker: "Dana",
  content,
  ...over,
});

const callerOf = (agent: TestAgent, kind: "internal" | "field", role: AgentCaller["role"]): AgentCaller => ({
  type: "agent", agentId: agent.id, name: agent.name, kind, role, clientId: agent.clientId, kbAccess: "read",
});

describe("POST /interactions with attachments", () => {
  it("stores them as sent, answers and lists them, and GET ?q= finds a word only a caption holds", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const word = rareWord();
    const attachments = [
      { kind: "image", caption: `a photo of a ${word} water heater with a scorched pilot`, url: "https://files.example.com/p/1.jpg", mimeType: "image/jpeg" },
      { kind: "file", name: "invoice-march.pdf", url: "http://intranet.local/invoices/3" },
      { kind: "audio" },
    ];
    const res = await as(agent.key).post("/api/v1/interactions", turn("Here is what it looks like now", { attachments }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.interaction.attachments).toEqual(attachments);

    // a turn without attachments has an empty list
    const plain = await as(agent.key).post("/api/v1/interactions", turn("No photo this time"));
    expect(plain.body.interaction.attachments).toEqual([]);

    const listed = await as(agent.key).get(`/api/v1/interactions?agentId=${agent.id}&q=${word}`);
    expect(listed.status).toBe(200);
    expect(listed.body.interactions.map((i: { id: string }) => i.id)).toEqual([res.body.interaction.id]);
    expect(listed.body.interactions[0].attachments).toEqual(attachments);
  });

  it("is found by retrieve through a word only its caption holds, and the item shows who said it and the caption", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const word = rareWord();
    const written = await as(agent.key).post("/api/v1/interactions/batch", {
      interactions: [
        turn("Morning! The heater is acting up again"),
        turn("Here is the panel now", { attachments: [{ kind: "image", caption: `an error code ${word} blinking on the heater panel` }] }),
        turn("Thanks, a technician will call you", { direction: "outbound", speaker: "Agent" }),
      ],
    });
    expect(written.status, JSON.stringify(written.body)).toBe(201);
    const found = await as(agent.key).post("/api/v1/retrieve", { message: `What does the ${word} code mean?`, scopes: ["interactions"] });
    expect(found.status).toBe(200);
    expect(found.body.items[0]).toMatchObject({ id: written.body.interactions[1].id, content: `Dana: Here is the panel now\n[image: an error code ${word} blinking on the heater panel]` });
    expect(found.body.context).toContain(`[image: an error code ${word} blinking on the heater panel]`);
  });

  it("refuses what exceeds the limits, naming the field, and stores nothing of a batch with one bad item", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const post = (attachments: unknown) => as(agent.key).post("/api/v1/interactions", turn("with a file", { attachments }));
    const cases: [unknown, RegExp][] = [
      [Array.from({ length: 11 }, () => ({ kind: "image" })), /^attachments: /],
      [[{ kind: "video" }], /^attachments\.0\.kind: /],
      [[{ kind: "image", caption: "x".repeat(2001) }], /^attachments\.0\.caption: /],
      [[{ kind: "image", url: "ftp://files.example.com/a.jpg" }], /^attachments\.0\.url: /],
      [[{ kind: "image", url: "javascript:alert(1)" }], /^attachments\.0\.url: /],
      [[{ kind: "image", url: `https://files.example.com/${"a".repeat(2000)}` }], /^attachments\.0\.url: /],
      [[{ kind: "file", mimeType: "not a type" }], /^attachments\.0\.mimeType: /],
      [[{ kind: "image", alt: "unknown field" }], /^attachments\.0: /],
      [{ kind: "image" }, /^attachments: /],
    ];
    for (const [attachments, message] of cases) {
      const res = await post(attachments);
      expect(res.status, JSON.stringify(attachments).slice(0, 80)).toBe(422);
      expect(res.body.error.message).toMatch(message);
    }
    // the limits themselves pass
    const most = await post(Array.from({ length: 10 }, (_, i) => ({ kind: "image", caption: i ? "ok" : "y".repeat(2000), url: `https://e.example/${"b".repeat(1975)}` })));
    expect(most.status, JSON.stringify(most.body).slice(0, 200)).toBe(201);

    const items = Array.from({ length: 4 }, (_, i) => turn(`turn ${i}`, { attachments: [{ kind: "image", caption: `picture ${i}` }] }));
    items[2] = turn("bad", { attachments: [{ kind: "image", url: "file:///etc/passwd" }] });
    const batch = await as(agent.key).post("/api/v1/interactions/batch", { interactions: items });
    expect(batch.status).toBe(422);
    expect(batch.body.error).toMatchObject({ code: "validation_failed", details: { index: 2 } });
    expect(batch.body.error.message).toMatch(/^interactions\[2\]\.attachments\.0\.url: /);
    const [counted] = await (await getDatabase()).query<{ n: number }>("select count(*)::int as n from interactions where agent_id = $1 and content like 'turn %'", [agent.id]);
    expect(counted!.n).toBe(0);
  });

  it("is refused by the database too, whoever inserts", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const insert = async (attachments: unknown) =>
      withClaims(await getDatabase(), claimsFor(callerOf(agent, "internal", "orchestrator")), (tx) =>
        tx.query(`insert into interactions (agent_id, channel, direction, content, attachments) values ($1, 'chat', 'inbound', 'planted', $2::jsonb)`, [
          agent.id,
          JSON.stringify(attachments),
        ]),
      );
    for (const bad of [
      Array.from({ length: 11 }, () => ({ kind: "image" })),
      [{ kind: "video" }],
      [{ caption: "no kind" }],
      [{ kind: "image", caption: "x".repeat(2001) }],
      [{ kind: "image", url: "ftp://x.example/a" }],
      [{ kind: "image", caption: 42 }],
      [{ kind: "image", extra: "field" }],
      { kind: "image" },
      ["image"],
    ]) {
      await expect(insert(bad), JSON.stringify(bad).slice(0, 60)).rejects.toThrow(/interactions_attachments_valid/);
    }
    await expect(insert([{ kind: "audio", caption: "a voice note about the boiler", name: "note.m4a", mimeType: "audio/mp4" }])).resolves.toBeDefined();
  });

  it("shows them only to callers who may read the turn", async () => {
    const acme = await createClient();
    const other = await createClient();
    const field = await createAgent({ kind: "field", role: "manager", clientId: acme.id });
    const stranger = await createAgent({ kind: "field", role: "manager", clientId: other.id });
    const specialist = await createAgent({ kind: "internal", role: "specialist" });
    const word = rareWord();
    const written = await as(field.key).post("/api/v1/interactions", turn("see the photo", { attachments: [{ kind: "image", caption: `the ${word} meter` }] }));
    expect(written.status, JSON.stringify(written.body)).toBe(201);
    const mine = await as(field.key).get(`/api/v1/interactions?q=${word}`);
    expect(mine.body.interactions).toHaveLength(1);
    // another client's agent and a specialist read nothing of it, through the API and the database
    expect((await as(stranger.key).get(`/api/v1/interactions?q=${word}`)).body.interactions).toEqual([]);
    expect((await as(specialist.key).get(`/api/v1/interactions?q=${word}`)).status).toBe(403);
    for (const [agent, kind, role] of [[stranger, "field", "manager"], [specialist, "internal", "specialist"]] as const) {
      const rows = await withClaims(await getDatabase(), claimsFor(callerOf(agent, kind, role)), (tx) =>
        tx.query("select attachments from interactions where id = $1", [written.body.interaction.id]),
      );
      expect(rows).toEqual([]);
    }
  });

  it("are recorded through MCP's log tools", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const client = new Client({ name: "attachments-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("http://127.0.0.1/api/mcp"), {
        fetch: async (url, init) => POST(new Request(url, init)),
        requestInit: { headers: { authorization: `Bearer ${agent.key}` } },
      }),
    );
    try {
      const one = await client.callTool({
        name: "log_interaction",
        arguments: turn("the leak, from below", { attachments: [{ kind: "image", caption: "water pooling under a sink" }] }),
      });
      expect(one.isError ?? false, JSON.stringify(one)).toBe(false);
      expect((one.structuredContent as { interaction: { attachments: unknown } }).interaction.attachments).toEqual([
        { kind: "image", caption: "water pooling under a sink" },
      ]);
      const bad = await client.callTool({ name: "log_conversation", arguments: { interactions: [turn("x", { attachments: [{ kind: "video" }] })] } });
      expect(bad.isError).toBe(true);
      const batch = await client.callTool({
        name: "log_conversation",
        arguments: { interactions: [turn("a", { attachments: [{ kind: "file", name: "plan.pdf" }] }), turn("b")] },
      });
      expect(batch.isError ?? false, JSON.stringify(batch)).toBe(false);
      const rows = await (await getDatabase()).query<{ content: string; attachments: unknown }>(
        "select content, attachments from interactions where agent_id = $1 order by seq",
        [agent.id],
      );
      expect(rows.map((r) => [r.content, r.attachments])).toEqual([
        ["the leak, from below", [{ kind: "image", caption: "water pooling under a sink" }]],
        ["a", [{ kind: "file", name: "plan.pdf" }]],
        ["b", []],
      ]);
    } finally {
      await client.close();
    }
  });
});
