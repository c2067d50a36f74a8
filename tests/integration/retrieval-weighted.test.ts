import { afterEach, describe, expect, it } from "vitest";
import { admin, as } from "../helpers/api";
import { createAgent, createClient, rareWord, type TestAgent } from "../helpers/fixtures";
import { asSystem, getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { setEmbeddingProviderForTests, toVectorLiteral, type EmbeddingProvider } from "@/lib/embeddings";
import { embedLocal, LOCAL_DIMENSIONS, LOCAL_MODEL } from "@/lib/embeddings/local";
import { flushTermStats, noteSearchWrite } from "@/lib/retrieval/search/term-stats";

// Memories, documents and the knowledge base: BM25 over postings fused with vectors by weighted
// scores, vectors of the query's model only, and the new postings/statistics tables under RLS.

const word = rareWord;

/**
 * Vectors with a known geometry: a text holding the phrase of one of `axes` points along that
 * axis (cosine 1 with the axis, 0 with the others); any other text along the last axis. An axis
 * may list several phrases.
 */
function axesProvider(model: string, axes: (string | string[])[]): EmbeddingProvider {
  return {
    name: "local",
    model,
    embed: async (texts) =>
      texts.map((t) => {
        const v = new Array<number>(1536).fill(0);
        const i = axes.findIndex((a) => (Array.isArray(a) ? a : [a]).some((p) => t.toLowerCase().includes(p.toLowerCase())));
        v[i < 0 ? axes.length : i] = 1;
        return v;
      }),
  };
}

afterEach(() => setEmbeddingProviderForTests(undefined));

async function memory(agent: TestAgent, body: Record<string, unknown>) {
  const res = await as(agent.key).post("/api/v1/agents/me/memories", { tier: "core", category: "procedure", confidence: 0.9, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.memory as { id: string; title: string };
}

const callerOf = (t: TestAgent, kind: "internal" | "field", role: "manager" | "orchestrator" | "specialist" = "orchestrator", kbAccess: "read" | "write" = "read") => ({
  type: "agent" as const,
  agentId: t.id,
  name: t.name,
  kind,
  role,
  clientId: t.clientId,
  kbAccess,
});

async function run<T = { id: string }>(who: Parameters<typeof claimsFor>[0], sql: string, params: unknown[] = []) {
  return withClaims(await getDatabase(), claimsFor(who), (tx) => tx.query<T>(sql, params));
}

describe("weighted score fusion", () => {
  it("ranks a strong lexical hit above a vector-only neighbour, and every score is 0.6 · lexical + 0.4 · cosine", async () => {
    const rare = word();
    const lexicalText = `${rare} flange bearings rotate monthly`;
    const nearText = "spinning parts upkeep";
    // the message ("how do we …") points exactly where the vector-only memory points (cosine 1) and
    // is orthogonal to the lexical one (cosine 0); it shares words with the lexical one only
    setEmbeddingProviderForTests(axesProvider("test-axes", [[nearText, "how do we"], lexicalText]));
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const lexical = await memory(me, { title: lexicalText, content: "Grease them first." });
    const near = await memory(me, { title: nearText, content: "Check the belts." });
    const other = await memory(me, { title: `${rare} appears here once among other words about invoices and payments`, content: "" });

    const res = await as(me.key).post("/api/v1/retrieve", { message: `How do we rotate the ${rare} flange bearings?`, scopes: ["memories"] });
    expect(res.status).toBe(200);
    const items = res.body.items as { id: string; score: number; meta: { lexicalScore: number; similarity: number | null } }[];
    const order = items.map((i) => i.id);
    expect(order.slice(0, 1)).toEqual([lexical.id]);
    expect(order).toContain(near.id);
    expect(order.indexOf(lexical.id)).toBeLessThan(order.indexOf(near.id));
    expect(order).toContain(other.id);
    for (const i of items) {
      expect(i.score).toBeGreaterThanOrEqual(0);
      expect(i.score).toBeLessThanOrEqual(1);
      expect(i.score).toBeCloseTo(0.6 * i.meta.lexicalScore + 0.4 * Math.max(i.meta.similarity ?? 0, 0), 2);
    }
    const top = items[0]!;
    expect(top.meta.lexicalScore).toBe(1);
    expect(top.meta.similarity).toBe(0);
    expect(items.find((i) => i.id === near.id)!.meta).toMatchObject({ lexicalScore: 0, similarity: 1 });
    // ordered by score
    expect([...items].sort((a, b) => b.score - a.score).map((i) => i.id)).toEqual(order);
  });

  it("the knowledge base answers curators and agents with the same weighted scores", async () => {
    const rare = word();
    const created = await admin.post("/api/v1/knowledge", {
      title: `Resetting the ${rare} controller`,
      content: `Hold the ${rare} reset button for ten seconds, then wait for the light.`,
      category: "procedure",
    });
    expect(created.status).toBe(201);
    const field = await createAgent({ kind: "field", role: "orchestrator", clientId: (await createClient()).id });
    const asCurator = await admin.get(`/api/v1/knowledge?q=${encodeURIComponent(`${rare} controller reset`)}`);
    const asAgent = await as(field.key).post("/api/v1/retrieve", { message: `${rare} controller reset`, scopes: ["knowledge"] });
    expect(asCurator.body.entries[0]).toMatchObject({ id: created.body.entry.id, lexicalScore: 1, fullTextRank: 1 });
    expect(asAgent.body.items[0]).toMatchObject({ id: created.body.entry.id, source: "knowledge" });
    expect(asAgent.body.items[0].score).toBeCloseTo(asCurator.body.entries[0].score, 6);
    const hit = asCurator.body.entries[0];
    expect(hit.score).toBeCloseTo(0.6 * hit.lexicalScore + 0.4 * Math.max(hit.similarity ?? 0, 0), 6);
  });
});

describe("a search compares only vectors of its own model", () => {
  it("memories, documents and knowledge entries embedded by another model are found by their words only", async () => {
    const nearText = `quiet ${word()} topic`;
    const first = axesProvider("test-model-a", [nearText]);
    setEmbeddingProviderForTests(first);
    const me = await createAgent({ kind: "internal", role: "orchestrator", kbAccess: "write" });
    const m = await memory(me, { title: nearText, content: "" });
    expect((await as(me.key).put("/api/v1/agents/me/documents/working", { content: nearText })).status).toBe(200);
    const kb = await as(me.key).post("/api/v1/knowledge", { title: nearText, content: "body", category: "procedure" });
    expect(kb.status).toBe(201);

    const query = toVectorLiteral((await first.embed([nearText]))[0]!);
    const who = callerOf(me, "internal");
    const searches = (model: string) =>
      Promise.all([
        run<{ id: string; similarity: number | null }>(who, "select id, similarity from search_memories('', $1::vector, $2, 10, 'agent', $3::uuid)", [query, model, me.id]),
        run<{ id: string; similarity: number | null }>(who, "select id, similarity from search_documents('', $1::vector, $2, 10, $3::uuid)", [query, model, me.id]),
        run<{ id: string; similarity: number | null }>(who, "select id, similarity from search_knowledge('', $1::vector, $2, 10)", [query, model]),
      ]);
    // the vectors' own model: found by vector alone (no query text), cosine 1
    const [mem, doc, know] = await searches("test-model-a");
    expect(mem.map((r) => r.id)).toContain(m.id);
    expect(mem.find((r) => r.id === m.id)!.similarity).toBeCloseTo(1, 6);
    expect(doc).toHaveLength(1);
    expect(doc[0]!.similarity).toBeCloseTo(1, 6);
    expect(know.map((r) => r.id)).toContain(kb.body.entry.id);
    // another model: the same numbers are not comparable, so nothing is found by vector
    expect(await searches("test-model-b")).toEqual([[], [], []]);

    // through the API, after a provider switch and before the backfill: found by words, no similarity
    setEmbeddingProviderForTests(axesProvider("test-model-b", [nearText]));
    const res = await as(me.key).post("/api/v1/retrieve", { message: nearText, scopes: ["memories", "documents", "knowledge"] });
    expect(res.status).toBe(200);
    const found = res.body.items as { id: string; source: string; meta: { similarity: number | null; lexicalScore: number } }[];
    expect(found.map((i) => i.source).sort()).toEqual(["documents", "knowledge", "memories"]);
    for (const i of found) expect(i.meta).toMatchObject({ similarity: null, lexicalScore: 1 });
  });
});

describe("vectors are stored at their model's width and searched through that width's index", () => {
  it("the local model at 101 dimensions, another model padded to 1536, each on its own partial HNSW index", async () => {
    const me = await createAgent({ kind: "internal", role: "orchestrator", kbAccess: "write" });
    const who = callerOf(me, "internal", "orchestrator", "write");
    const text = `Boiler pressure ${word()} checklist`;
    const local = await memory(me, { title: text, content: "Check the gauge before the valve." });
    const turn = await as(me.key).post("/api/v1/interactions", { channel: "chat", direction: "inbound", speaker: "Pat", content: `Pat: ${text}` });
    expect(turn.status).toBe(201);
    const entry = await as(me.key).post("/api/v1/knowledge", { title: text, content: "body", category: "procedure" });
    expect(entry.status).toBe(201);
    const [dims] = await run<{ m: number; i: number; k: number }>(
      who,
      `select (select vector_dims(embedding) from memories where id = $1) as m, (select vector_dims(embedding) from interactions where id = $2) as i,
              (select vector_dims(embedding) from knowledge_entries where id = $3) as k`,
      [local.id, turn.body.interaction.id, entry.body.entry.id],
    );
    expect(dims).toEqual({ m: LOCAL_DIMENSIONS, i: LOCAL_DIMENSIONS, k: LOCAL_DIMENSIONS });

    // the HNSW walks as the agent, and the index scans they made
    const search = async (query: string, model: string) =>
      withClaims(await getDatabase(), claimsFor(who), async (tx) => {
        // the backend's scan counts not yet reported: they only grow within a transaction
        const counted = async () =>
          (
            await tx.query<Record<string, number>>(
              `select ${["memories", "interactions", "knowledge_entries"]
                .flatMap((t) => [101, 1536].map((w) => `pg_stat_get_xact_numscans('${t}_embedding_${w}_idx'::regclass)::int as "${t}_${w}"`))
                .join(", ")}`,
            )
          )[0]!;
        const before = await counted();
        const ids = async (sql: string) => (await tx.query<{ id: string }>(sql, [query, model, me.id])).map((r) => r.id);
        const found = {
          memories: await ids("select id from mhq.memory_vector_candidates($1::vector, $2, 'agent', $3::uuid, now(), 20)"),
          interactions: await ids("select id from mhq.interaction_vector_candidates($1::vector, $2, $3::uuid, null, 50)"),
          knowledge: await ids("select id from mhq.published_knowledge_vector_candidates($1::vector, $2, 20) where $3::uuid is not null"),
        };
        const after = await counted();
        const counts = Object.fromEntries(Object.keys(after).map((k) => [k, after[k]! - before[k]!]));
        return { found, counts };
      });

    const localQuery = toVectorLiteral(embedLocal(text));
    const viaLocal = await search(localQuery, LOCAL_MODEL);
    expect(viaLocal.found.memories).toContain(local.id);
    expect(viaLocal.found.interactions).toContain(turn.body.interaction.id);
    expect(viaLocal.found.knowledge).toContain(entry.body.entry.id);
    expect(viaLocal.counts).toMatchObject({ memories_1536: 0, interactions_1536: 0, knowledge_entries_1536: 0 });
    expect(viaLocal.counts.memories_101).toBeGreaterThan(0);
    expect(viaLocal.counts.interactions_101).toBeGreaterThan(0);
    expect(viaLocal.counts.knowledge_entries_101).toBeGreaterThan(0);

    // a provider's model: its vectors stay 1536 wide and are walked on the other index
    const wide = axesProvider("test-model-wide", [text]);
    setEmbeddingProviderForTests(wide);
    const other = await memory(me, { title: `${text} again`, content: "" });
    const [otherDims] = await run<{ d: number }>(who, "select vector_dims(embedding) as d from memories where id = $1", [other.id]);
    expect(otherDims!.d).toBe(1536);
    const viaWide = await search(toVectorLiteral((await wide.embed([text]))[0]!), "test-model-wide");
    expect(viaWide.found.memories).toEqual([other.id]);
    expect(viaWide.counts.memories_1536).toBeGreaterThan(0);
    expect(viaWide.counts.memories_101).toBe(0);
  });
});

describe("the BM25 postings and statistics under RLS", () => {
  it("serve nobody a row they may not read, by the database and by the API", async () => {
    const topic = word();
    const client = await createClient();
    const a = await createAgent({ kind: "internal", role: "orchestrator" });
    const b = await createAgent({ kind: "internal", role: "orchestrator" });
    const field = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    const aMemory = await memory(a, { title: `${topic} private to a` });
    const team = await memory(a, { scope: "team", title: `${topic} shared with the team` });
    const archived = await admin.post("/api/v1/knowledge", { title: `${topic} old way`, content: `${topic} retired steps`, category: "procedure" });
    expect((await admin.delete(`/api/v1/knowledge/${archived.body.entry.id}`)).status).toBe(200);

    // control: the owner finds its memory, internal agents the team's, HQ the archived entry
    const lexical = "select id from mhq.memory_lexical_candidates($1, $2, $3, 50)";
    expect((await run(callerOf(a, "internal"), lexical, [topic, "agent", a.id])).map((r) => r.id)).toEqual([aMemory.id]);
    expect((await run(callerOf(b, "internal"), lexical, [topic, "team", null])).map((r) => r.id)).toEqual([team.id]);
    const hq = { type: "hq" as const, userId: null, name: "hq", email: null, role: "admin" as const };
    const archivedSearch = "select id from mhq.knowledge_lexical_candidates($1, null, null, true, 50)";
    expect((await run(hq, archivedSearch, [topic])).map((r) => r.id)).toEqual([archived.body.entry.id]);

    // another agent's memories, the team's for a field agent, archived entries for an agent: never
    expect(await run(callerOf(b, "internal"), lexical, [topic, "agent", a.id])).toEqual([]);
    expect(await run(callerOf(field, "field"), lexical, [topic, "team", null])).toEqual([]);
    expect(await run(callerOf(field, "field"), archivedSearch, [topic])).toEqual([]);
    expect(await run(callerOf(b, "internal"), "select id from search_memories($1, null, null, 50, 'agent', $2::uuid)", [topic, a.id])).toEqual([]);
    expect(await run(callerOf(field, "field"), "select id from search_knowledge($1, null, null, 50, null, null, true)", [topic])).toEqual([]);

    // the tables themselves: postings and statistics as their rows' readers, the log as nobody's
    const postings = "select memory_id as id from memory_postings where memory_id = any($1::uuid[])";
    expect((await run(callerOf(a, "internal"), postings, [[aMemory.id]])).length).toBeGreaterThan(0);
    expect(await run(callerOf(b, "internal"), postings, [[aMemory.id]])).toEqual([]);
    expect(await run(callerOf(field, "field"), postings, [[team.id]])).toEqual([]);
    expect(await run(callerOf(field, "field"), "select entry_id as id from knowledge_postings where entry_id = $1", [archived.body.entry.id])).toEqual([]);
    const stats = "select lexeme as id from search_term_stats where corpus = 'memories' and corpus_id = $1";
    await flushTermStats();
    expect((await run(callerOf(a, "internal"), stats, [a.id])).length).toBeGreaterThan(0);
    expect(await run(callerOf(b, "internal"), stats, [a.id])).toEqual([]);
    await expect(run(callerOf(a, "internal"), "select lexeme as id from search_stats_log")).rejects.toThrow(/permission denied/);
    // and writing them is the triggers' and the job's alone
    await expect(run(callerOf(a, "internal"), "insert into memory_postings (memory_id, lexeme, corpus_id, agent_id, scope, tf, len) values ($1, 'x', $2, $2, 'agent', 1, 1)", [aMemory.id, a.id])).rejects.toThrow();
    await expect(run(callerOf(a, "internal"), "insert into search_stats_log (corpus, corpus_id, lexeme, df_delta) values ('memories', $1, 'x', 100)", [a.id])).rejects.toThrow();

    // by the API
    const viaB = await as(b.key).post("/api/v1/retrieve", { message: `${topic} private`, scopes: ["memories", "team"], limit: 50 });
    expect(viaB.body.items.map((i: { id: string }) => i.id)).not.toContain(aMemory.id);
    const viaField = await as(field.key).post("/api/v1/retrieve", { message: `${topic} shared`, scopes: ["memories", "knowledge"], limit: 50 });
    expect(viaField.body.items.map((i: { id: string }) => i.id)).toEqual([]);
    const kbField = await as(field.key).get(`/api/v1/knowledge?q=${topic}&status=archived`);
    expect(kbField.body.entries).toEqual([]);
  });
});

describe("the statistics follow the writes in batches", () => {
  it("counts a new row at once, folds concurrent writes into exact counts, and forgets archived ones", async () => {
    const topic = word();
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const written = await Promise.all(Array.from({ length: 8 }, (_, i) => memory(me, { title: `${topic} note ${i}`, content: i % 2 ? `${topic} again` : "" })));
    // before any fold: the log alone makes the new rows count
    const first = await as(me.key).post("/api/v1/retrieve", { message: topic, scopes: ["memories"], limit: 20 });
    expect(first.body.items.map((i: { id: string }) => i.id).sort()).toEqual(written.map((m) => m.id).sort());

    const df = () =>
      asSystem(async (tx) => {
        const [lexeme] = await tx.query<{ l: string }>("select (to_tsvector('english', $1)::text) as l", [topic]);
        const rows = await tx.query<{ df: number; n: number }>(
          `select coalesce((select df from search_term_stats where corpus = 'memories' and corpus_id = $1 and lexeme = $2), 0)
                + coalesce((select sum(df_delta) from search_stats_log where corpus = 'memories' and corpus_id = $1 and lexeme = $2), 0) as df,
                  coalesce((select df from search_term_stats where corpus = 'memories' and corpus_id = $1 and lexeme = ''), 0)
                + coalesce((select sum(df_delta) from search_stats_log where corpus = 'memories' and corpus_id = $1 and lexeme = ''), 0) as n`,
          [me.id, lexeme!.l.replace(/^'|'.*$/g, "")],
        );
        return { df: Number(rows[0]!.df), n: Number(rows[0]!.n) };
      });
    expect(await df()).toEqual({ df: 8, n: 8 });
    await flushTermStats();
    expect(await df()).toEqual({ df: 8, n: 8 });
    expect(await asSystem((tx) => tx.query("select 1 from search_stats_log where corpus_id = $1", [me.id]))).toEqual([]);
    const folded = await as(me.key).post("/api/v1/retrieve", { message: topic, scopes: ["memories"], limit: 20 });
    expect(folded.body.items.map((i: { id: string }) => i.id)).toEqual(first.body.items.map((i: { id: string }) => i.id));

    // archiving takes a memory out of the postings and the statistics; concurrent with a fold
    await Promise.all([
      ...written.slice(0, 3).map((m) => as(me.key).patch(`/api/v1/memories/${m.id}`, { status: "archived" })),
      (async () => {
        noteSearchWrite();
        await flushTermStats();
      })(),
    ]);
    await flushTermStats();
    expect(await df()).toEqual({ df: 5, n: 5 });
    const after = await as(me.key).post("/api/v1/retrieve", { message: topic, scopes: ["memories"], limit: 20 });
    expect(after.body.items.map((i: { id: string }) => i.id).sort()).toEqual(written.slice(3).map((m) => m.id).sort());
  });
});
