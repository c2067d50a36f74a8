import { afterEach, describe, expect, it } from "vitest";
import { admin, as } from "../helpers/api";
import { createAgent } from "../helpers/fixtures";
import { getDatabase } from "@/lib/db";
import { EmbeddingUnavailableError, setEmbeddingProviderForTests, toVectorLiteral, type EmbeddingProvider } from "@/lib/embeddings";
import { backfillEmbeddings } from "@/lib/embeddings/backfill";
import { embedLocal, localEmbedder } from "@/lib/embeddings/local";
import { memoryEmbeddingText } from "@/lib/memories/rules";

const down: EmbeddingProvider = {
  name: "openai",
  model: "unreachable",
  embed: async () => {
    throw new EmbeddingUnavailableError("The embedding server at http://127.0.0.1:9 is unreachable");
  },
};

const queued = async (table: string) =>
  (await admin.get("/api/v1/embeddings/backfill")).body.targets.find((t: any) => t.table === table).remaining as number;

afterEach(() => setEmbeddingProviderForTests(undefined));

describe("queued for re-embedding", () => {
  it("keeps writes when the provider is down and fills the embeddings in later, in bounded passes", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    setEmbeddingProviderForTests(down);
    const memory = await as(agent.key).post("/api/v1/agents/me/memories", {
      tier: "learning",
      category: "insight",
      title: "Customers book more on Tuesdays",
      content: "Seen across three weeks of Sunrise's calendar.",
      confidence: 0.8,
    });
    expect(memory.status).toBe(201);
    expect(memory.body.memory.embedded).toBe(false);
    const doc = await as(agent.key).put("/api/v1/agents/me/documents/working", { content: "scratchpad while offline" });
    expect(doc.status).toBe(200);
    const interaction = await as(agent.key).post("/api/v1/interactions", { channel: "sms", direction: "inbound", content: "Is Tuesday free?" });
    expect(interaction.body.interaction.embedded).toBe(false);

    const status = await admin.get("/api/v1/embeddings/backfill");
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ provider: "openai", model: "unreachable" });
    expect(await queued("memories")).toBe(1);
    expect(await queued("agent_documents")).toBe(1);
    expect(await queued("interactions")).toBe(1);

    // still down: the pass reports the failure and loses nothing
    const failed = await admin.post("/api/v1/embeddings/backfill", {});
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ embedded: 0, error: expect.stringContaining("unreachable") });
    expect(failed.body.remaining).toBeGreaterThanOrEqual(3);

    setEmbeddingProviderForTests(undefined);
    const before = (await admin.get("/api/v1/embeddings/backfill")).body.remaining;
    const pass = await admin.post("/api/v1/embeddings/backfill", { limit: 2 });
    expect(pass.body.embedded).toBe(2);
    expect(pass.body.remaining).toBe(before - 2);
    const rest = await admin.post("/api/v1/embeddings/backfill", {});
    expect(rest.body.remaining).toBe(0);
    expect(rest.body).not.toHaveProperty("error");

    // the backfill embeds exactly the text a healthy write embeds
    const expected = toVectorLiteral(embedLocal(memoryEmbeddingText({ title: "Customers book more on Tuesdays", content: "Seen across three weeks of Sunrise's calendar." })));
    const [row] = await (await getDatabase()).query<{ distance: number }>(
      "select embedding <=> $2::vector as distance from memories where id = $1",
      [memory.body.memory.id, expected],
    );
    expect(row!.distance).toBeLessThan(1e-6);
    expect((await as(agent.key).get(`/api/v1/memories/${memory.body.memory.id}`)).body.memory.embedded).toBe(true);
  });

  it("never writes an embedding of text that changed while it was being embedded", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    setEmbeddingProviderForTests(down);
    const m = await as(agent.key).post("/api/v1/agents/me/memories", { tier: "learning", category: "insight", title: "draft", confidence: 0.8 });
    const db = await getDatabase();
    // a provider that sees the row edited (still unembedded) while it works
    setEmbeddingProviderForTests({
      ...localEmbedder,
      embed: async (texts) => {
        await db.query("update memories set title = 'edited meanwhile' where id = $1", [m.body.memory.id]);
        return localEmbedder.embed(texts);
      },
    });
    const first = await backfillEmbeddings({ targets: [{ table: "memories", textExpression: "case when content = '' then title else title || E'\\n\\n' || content end" }] });
    expect(first.embedded).toBe(0);
    expect(first.remaining).toBe(1);
    setEmbeddingProviderForTests(undefined);
    const second = await backfillEmbeddings({});
    expect(second.targets.find((t) => t.table === "memories")!.remaining).toBe(0);
    const [row] = await db.query<{ distance: number }>("select embedding <=> $2::vector as distance from memories where id = $1", [
      m.body.memory.id,
      toVectorLiteral(embedLocal("edited meanwhile")),
    ]);
    expect(row!.distance).toBeLessThan(1e-6);
  });

  it("is for HQ admins only", async () => {
    const agent = await createAgent({ kind: "internal", role: "manager", kbAccess: "write" });
    expect((await as(agent.key).get("/api/v1/embeddings/backfill")).status).toBe(403);
    expect((await as(agent.key).post("/api/v1/embeddings/backfill", {})).status).toBe(403);
    expect((await admin.post("/api/v1/embeddings/backfill", { limit: 0 })).status).toBe(422);
  });
});
