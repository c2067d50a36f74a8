import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { flushAccessCounts } from "@/lib/retrieval/usage/access-counts";
import { admin, api, as } from "../helpers/api";
import { createAgent, createClient, createHqUser, type TestAgent, type TestHqUser } from "../helpers/fixtures";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { getDatabase } from "@/lib/db";
import { EmbeddingUnavailableError, setEmbeddingProviderForTests, toVectorLiteral, type EmbeddingProvider } from "@/lib/embeddings";
import { backfillEmbeddings, BACKFILL_TARGETS } from "@/lib/embeddings/backfill";
import { embedLocal } from "@/lib/embeddings/local";
import type { AgentCaller } from "@/lib/auth/caller";

const KB = "/api/v1/knowledge";

let curator: TestHqUser;
let viewer: TestHqUser;
let sam: TestAgent; // internal specialist granted kbAccess "write" (the CS agent)
let sage: TestAgent; // internal orchestrator, read only
let santos: TestAgent; // field agent
let isolated: TestAgent;

const asUser = (u: TestHqUser) => ({
  get: (path: string) => api("GET", path, { cookie: u.cookie }),
  post: (path: string, body?: unknown) => api("POST", path, { cookie: u.cookie, body: body ?? {} }),
  patch: (path: string, body?: unknown) => api("PATCH", path, { cookie: u.cookie, body: body ?? {} }),
  delete: (path: string) => api("DELETE", path, { cookie: u.cookie }),
});

let n = 0;
const entry = (overrides: Record<string, unknown> = {}) => ({
  title: `Entry ${++n} ${Math.random().toString(36).slice(2, 7)}`,
  content: "A procedure body.",
  category: "procedure",
  ...overrides,
});

beforeAll(async () => {
  const client = await createClient();
  curator = await createHqUser("curator");
  viewer = await createHqUser("viewer");
  sam = await createAgent({ kind: "internal", role: "specialist", kbAccess: "write" });
  sage = await createAgent({ kind: "internal", role: "orchestrator" });
  santos = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
  isolated = await createAgent({ kind: "internal", role: "isolated" });
});

afterEach(() => setEmbeddingProviderForTests(undefined));

describe("editing, versions, restore and archive", () => {
  it("a curator creates, edits (409 when stale), lists versions in order, restores and archives", async () => {
    const me = asUser(curator);
    const created = await me.post(KB, {
      title: "Refund requests over the phone",
      content: "Log the request, confirm the order number, and hand it to HQ.",
      category: "procedure",
      tags: ["Refunds", "phone calls", "refunds"],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const e = created.body.entry;
    expect(e).toMatchObject({
      version: 1,
      status: "published",
      category: "procedure",
      tags: ["refunds", "phone-calls"],
      createdBy: curator.email,
      updatedBy: curator.email,
      accessedCount: 0,
      embedded: true,
    });

    const edited = await me.patch(`${KB}/${e.id}`, { content: "Log it, confirm the order number, then escalate to Sam.", expectedVersion: 1 });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.entry).toMatchObject({ version: 2, content: "Log it, confirm the order number, then escalate to Sam." });

    const stale = await me.patch(`${KB}/${e.id}`, { title: "Someone else's idea", expectedVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("version_conflict");
    expect(stale.body.error.details.current.version).toBe(2);
    expect((await me.get(`${KB}/${e.id}`)).body.entry.title).toBe("Refund requests over the phone");

    const retitled = await me.patch(`${KB}/${e.id}`, { title: "Phone refund requests", expectedVersion: 2 });
    expect(retitled.body.entry.version).toBe(3);

    const versions = await me.get(`${KB}/${e.id}/versions`);
    expect(versions.status).toBe(200);
    expect(versions.body.versions.map((v: any) => v.version)).toEqual([1, 2, 3]);
    expect(versions.body.versions.map((v: any) => v.current)).toEqual([false, false, true]);
    expect(versions.body.versions[0]).toMatchObject({
      title: "Refund requests over the phone",
      content: "Log the request, confirm the order number, and hand it to HQ.",
      editedBy: curator.email,
    });
    expect(versions.body.versions[1].title).toBe("Refund requests over the phone");
    expect(versions.body.versions[2].title).toBe("Phone refund requests");

    const restored = await me.post(`${KB}/${e.id}/restore`, { version: 1, expectedVersion: 3 });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body).toMatchObject({ restoredFrom: 1, entry: { version: 4, title: "Refund requests over the phone", content: "Log the request, confirm the order number, and hand it to HQ." } });
    expect((await me.post(`${KB}/${e.id}/restore`, { version: 2, expectedVersion: 3 })).status).toBe(409);
    expect((await me.post(`${KB}/${e.id}/restore`, { version: 9 })).status).toBe(404);
    expect((await me.post(`${KB}/${e.id}/restore`, { version: 4 })).status).toBe(422);

    const archived = await me.delete(`${KB}/${e.id}`);
    expect(archived.status).toBe(200);
    expect(archived.body.entry).toMatchObject({ status: "archived", version: 5 });
    // archived, not deleted: the entry and its whole history are still there for HQ
    const after = await me.get(`${KB}/${e.id}/versions`);
    expect(after.body.versions.map((v: any) => v.version)).toEqual([1, 2, 3, 4, 5]);
    expect((await me.delete(`${KB}/${e.id}`)).body.entry.version).toBe(5);
    // and it is withdrawn from readers: a field agent no longer finds it
    expect((await as(santos.key).get(`${KB}/${e.id}`)).status).toBe(404);
    const db = await getDatabase();
    expect((await db.query("select count(*)::int as n from knowledge_entries where id = $1", [e.id]))[0]).toEqual({ n: 1 });

    const unarchived = await me.patch(`${KB}/${e.id}`, { status: "published" });
    expect(unarchived.body.entry).toMatchObject({ status: "published", version: 6 });

    const audit = await admin.get("/api/v1/audit?action=knowledge");
    const actions = audit.body.entries.filter((a: any) => a.targetId === e.id).map((a: any) => a.action);
    expect(actions).toEqual(expect.arrayContaining(["knowledge.create", "knowledge.update", "knowledge.restore", "knowledge.archive", "knowledge.unarchive"]));
  });

  it("a write-granted internal agent creates, edits, restores and archives; the history names it", async () => {
    const me = as(sam.key);
    const created = await me.post(KB, entry({ title: "Cron job silently stopped", content: "Check the schedule expression first.", category: "tool-guide" }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.entry.id;
    expect(created.body.entry.createdBy).toBe(sam.name);
    const edited = await me.patch(`${KB}/${id}`, { content: "Check the schedule expression, then the time zone.", tags: ["cron"], expectedVersion: 1 });
    expect(edited.body.entry).toMatchObject({ version: 2, tags: ["cron"], updatedBy: sam.name });
    const restored = await me.post(`${KB}/${id}/restore`, { version: 1 });
    expect(restored.body.entry).toMatchObject({ version: 3, content: "Check the schedule expression first.", tags: [] });
    const archived = await me.delete(`${KB}/${id}`);
    expect(archived.body.entry.status).toBe("archived");
    // a writer still sees its archived entry (so it can bring it back); read-only agents do not
    expect((await me.get(`${KB}/${id}`)).status).toBe(200);
    expect((await as(sage.key).get(`${KB}/${id}`)).status).toBe(404);
  });

  it("a change that alters nothing keeps the version; edits without expectedVersion apply to the latest", async () => {
    const me = asUser(curator);
    const e = (await me.post(KB, entry())).body.entry;
    const same = await me.patch(`${KB}/${e.id}`, { content: e.content });
    expect(same.body.entry.version).toBe(1);
    const blind = await me.patch(`${KB}/${e.id}`, { category: "best-practice" });
    expect(blind.body.entry).toMatchObject({ version: 2, category: "best-practice" });
  });

  it("keeps one published entry per title and rejects unknown fields", async () => {
    const me = asUser(curator);
    const first = await me.post(KB, entry({ title: "Unique Title Check" }));
    expect(first.status).toBe(201);
    const dup = await me.post(KB, entry({ title: "  unique title check " }));
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: "conflict", details: { existingId: first.body.entry.id } });
    const other = (await me.post(KB, entry())).body.entry;
    expect((await me.patch(`${KB}/${other.id}`, { title: "UNIQUE TITLE CHECK" })).status).toBe(409);

    const extra = await me.post(KB, { ...entry(), author: "someone" });
    expect(extra.status).toBe(422);
    expect((await me.post(KB, entry({ category: "gossip" }))).status).toBe(422);
    expect((await me.post(KB, entry({ title: "x".repeat(201) }))).status).toBe(422);
    expect((await me.patch(`${KB}/${other.id}`, { expectedVersion: 1 })).status).toBe(422);
    expect((await me.get(`${KB}/not-a-uuid`)).status).toBe(404);
  });
});

describe("who may write", () => {
  it("answers 403 to field agents, viewers, read-only and isolated agents", async () => {
    const target = (await asUser(curator).post(KB, entry())).body.entry;
    const refusedWrites = async (call: ReturnType<typeof as> | ReturnType<typeof asUser>) => {
      const results = [
        await call.post(KB, entry()),
        await call.patch(`${KB}/${target.id}`, { content: "rewritten" }),
        await call.delete(`${KB}/${target.id}`),
        await call.post(`${KB}/${target.id}/restore`, { version: 1 }),
        await call.post(`${KB}/import`, { entries: [entry()] }),
      ];
      return results.map((r) => r.status);
    };
    expect(await refusedWrites(as(santos.key))).toEqual([403, 403, 403, 403, 403]);
    expect(await refusedWrites(asUser(viewer))).toEqual([403, 403, 403, 403, 403]);
    expect(await refusedWrites(as(sage.key))).toEqual([403, 403, 403, 403, 403]);
    expect((await as(isolated.key).get(KB)).status).toBe(403);
    expect((await as(isolated.key).get(`${KB}/${target.id}`)).status).toBe(403);

    // readers read
    expect((await as(santos.key).get(`${KB}/${target.id}`)).status).toBe(200);
    expect((await asUser(viewer).get(`${KB}/${target.id}/versions`)).status).toBe(200);
    expect((await as(sage.key).get(KB)).status).toBe(200);
    // nothing changed
    const now = (await admin.get(`${KB}/${target.id}`)).body.entry;
    expect(now).toMatchObject({ version: 1, content: target.content, status: "published" });
  });

  it("the database itself refuses a field agent's insert and update, and a reader's update", async () => {
    const target = (await asUser(curator).post(KB, entry())).body.entry;
    const db = await getDatabase();
    const field: AgentCaller = { type: "agent", agentId: santos.id, name: santos.name, kind: "field", role: "orchestrator", clientId: santos.clientId, kbAccess: "read" };
    // even claims that say "write" do not make a field agent a writer
    const forgedField = { ...claimsFor(field), kb_access: "write" };
    const reader: AgentCaller = { type: "agent", agentId: sage.id, name: sage.name, kind: "internal", role: "orchestrator", clientId: null, kbAccess: "read" };

    for (const claims of [claimsFor(field), forgedField]) {
      await expect(
        withClaims(db, claims, (tx) =>
          tx.query("insert into knowledge_entries (title, content, category) values ('Injected', 'x', 'procedure')"),
        ),
      ).rejects.toMatchObject({ code: "42501" });
      await expect(
        withClaims(db, claims, (tx) => tx.query("update knowledge_entries set content = 'defaced' where id = $1", [target.id])),
      ).rejects.toMatchObject({ code: "42501" });
    }
    await expect(
      withClaims(db, claimsFor(reader), (tx) => tx.query("update knowledge_entries set status = 'archived' where id = $1", [target.id])),
    ).rejects.toMatchObject({ code: "42501" });
    // no one deletes, and no one writes history or counters directly
    const writer = { caller_type: "hq", hq_role: "curator", name: "c" };
    await expect(withClaims(db, writer, (tx) => tx.query("delete from knowledge_entries where id = $1", [target.id]))).rejects.toMatchObject({ code: "42501" });
    await expect(
      withClaims(db, writer, (tx) =>
        tx.query("insert into knowledge_entry_versions (entry_id, version, title, content, category, tags, status, edited_by, edited_at) values ($1, 99, 't', 'c', 'procedure', '{}', 'published', 'x', now())", [target.id]),
      ),
    ).rejects.toMatchObject({ code: "42501" });
    await expect(withClaims(db, writer, (tx) => tx.query("update knowledge_entries set accessed_count = 1000 where id = $1", [target.id]))).rejects.toMatchObject({ code: "42501" });

    const [row] = await db.query<{ content: string; version: number; n: number }>(
      "select content, version, (select count(*)::int from knowledge_entries where title = 'Injected') as n from knowledge_entries where id = $1",
      [target.id],
    );
    expect(row).toEqual({ content: target.content, version: 1, n: 0 });
  });
});

describe("hybrid search", () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    const me = asUser(curator);
    const seed = [
      { key: "water", title: "Water heater pilot light keeps going out", content: "Ask whether the thermocouple was replaced recently, then book a technician visit.", category: "skill-doc", tags: ["plumbing"] },
      { key: "sev", title: "Severity levels for escalations", content: "Sev 1 means revenue or safety is at risk: call the escalation number immediately.", category: "escalation", tags: ["severity"] },
      { key: "sevguide", title: "Escalating a failed webhook", content: "A failed webhook is severity 2 unless customers are affected; retry with backoff first.", category: "tool-guide", tags: ["webhooks", "severity"] },
      { key: "onboard", title: "Client onboarding checklist", content: "Collect brand voice, business hours and the booking link before the first message.", category: "template", tags: ["onboarding"] },
    ];
    for (const s of seed) {
      const { key, ...body } = s;
      const res = await me.post(KB, body);
      expect(res.status).toBe(201);
      ids[key] = res.body.entry.id;
    }
  });

  it("finds an entry by words from its content, fused from full text and vectors", async () => {
    const res = await as(santos.key).get(`${KB}?q=${encodeURIComponent("thermocouple replaced")}`);
    expect(res.status).toBe(200);
    expect(res.body.mode).toBe("search");
    expect(res.body.semantic).toBe(true);
    expect(res.body).not.toHaveProperty("semanticSkipped");
    expect(res.body.entries[0].id).toBe(ids.water);
    expect(res.body.entries[0].fullTextRank).toBe(1);
    expect(res.body.entries[0].semanticRank).toBe(1);
    expect(res.body.entries[0].score).toBeGreaterThan(0);
  });

  it("says a search ran on words alone because the model knows none of them, not because the provider is down", async () => {
    const res = await as(santos.key).get(`${KB}?q=${encodeURIComponent("zzzzqqq")}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mode: "search", semantic: false, semanticSkipped: "unknown_words" });
  });

  it("respects the category and tag filters", async () => {
    const all = await as(sage.key).get(`${KB}?q=severity`);
    const found = all.body.entries.map((e: any) => e.id);
    expect(found).toEqual(expect.arrayContaining([ids.sev, ids.sevguide]));

    const escalations = await as(sage.key).get(`${KB}?q=severity&category=escalation`);
    expect(escalations.body.entries.length).toBeGreaterThan(0);
    expect(escalations.body.entries.every((e: any) => e.category === "escalation")).toBe(true);
    expect(escalations.body.entries.map((e: any) => e.id)).toContain(ids.sev);
    expect(escalations.body.entries.map((e: any) => e.id)).not.toContain(ids.sevguide);

    const tagged = await as(sage.key).get(`${KB}?q=severity&tag=webhooks`);
    expect(tagged.body.entries.map((e: any) => e.id)).toEqual([ids.sevguide]);

    const listed = await asUser(viewer).get(`${KB}?category=template`);
    expect(listed.body.mode).toBe("list");
    expect(listed.body.entries.map((e: any) => e.id)).toContain(ids.onboard);
    expect(listed.body.entries.every((e: any) => e.category === "template")).toBe(true);

    const tags = await asUser(viewer).get(`${KB}/tags`);
    expect(tags.body.tags).toEqual(expect.arrayContaining([{ tag: "severity", count: 2 }, { tag: "webhooks", count: 1 }]));
  });

  it("counts results served to agents, not HQ browsing", async () => {
    await flushAccessCounts();
    const before = (await admin.get(`${KB}/${ids.onboard}`)).body.entry.accessedCount;
    await asUser(curator).get(`${KB}?q=onboarding+checklist`);
    expect((await admin.get(`${KB}/${ids.onboard}`)).body.entry.accessedCount).toBe(before);

    const served = await as(santos.key).get(`${KB}?q=onboarding+checklist`);
    const hit = served.body.entries.find((e: any) => e.id === ids.onboard);
    expect(hit.accessedCount).toBe(before + 1);
    expect(hit.lastAccessedAt).not.toBeNull();
    await as(sam.key).get(`${KB}/${ids.onboard}`);
    // the stored counters take the accesses in about a second (lib/retrieval/usage/access-counts.ts)
    await flushAccessCounts();
    expect((await admin.get(`${KB}/${ids.onboard}`)).body.entry.accessedCount).toBe(before + 2);
  });

  it("leaves archived entries out of agents' searches", async () => {
    const me = asUser(curator);
    const gone = (await me.post(KB, entry({ title: "Obsolete zyzzyva procedure", content: "zyzzyva steps nobody uses" }))).body.entry;
    expect((await as(santos.key).get(`${KB}?q=zyzzyva`)).body.entries.map((e: any) => e.id)).toContain(gone.id);
    await me.delete(`${KB}/${gone.id}`);
    expect((await as(santos.key).get(`${KB}?q=zyzzyva`)).body.entries.map((e: any) => e.id)).not.toContain(gone.id);
    const archived = (await me.get(`${KB}?q=zyzzyva&status=archived`)).body.entries;
    expect(archived[0].id).toBe(gone.id);
    expect(archived.every((e: any) => e.status === "archived")).toBe(true);
  });

  it("a filtered search still returns `limit` rows when enough match, on the exact and on the HNSW path", async () => {
    // 100 entries close to the query and 40 far from it; only the far ones are tool guides, so
    // the 40 nearest neighbours an unaided HNSW scan looks at hold almost no tool guides. The
    // geometry is made explicit: texts about invoices point one way, the rest another, each
    // spread a little by its own words.
    const clustered: EmbeddingProvider = {
      name: "local",
      model: "test-clusters",
      embed: async (texts) =>
        texts.map((t) => {
          const v = new Array<number>(1536).fill(0);
          v[/invoice/i.test(t) ? 0 : 1] = 1;
          let h = 2166136261;
          for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 16777619) >>> 0;
          for (let d = 2; d < 34; d++) {
            h = Math.imul(h ^ d, 16777619) >>> 0;
            v[d] = ((h % 1000) / 1000 - 0.5) * 0.2;
          }
          const norm = Math.hypot(...v);
          return v.map((x) => x / norm);
        }),
    };
    setEmbeddingProviderForTests(clustered);
    const near = Array.from({ length: 100 }, (_, i) => ({
      title: `Invoice reminder cadence ${i}`,
      content: `Send the invoice reminder on day ${i} with the payment link and a friendly tone.`,
      category: "best-practice",
    }));
    const far = Array.from({ length: 40 }, (_, i) => ({
      title: `Kubernetes pod restart ${i}`,
      content: `Drain node ${i}, cordon it, restart the deployment, watch the rollout status.`,
      category: "tool-guide",
      tags: ["bulk-filter-test"],
    }));
    const imported = await asUser(curator).post(`${KB}/import`, { entries: [...near, ...far] });
    expect(imported.body.summary.created).toBe(140);

    const q = "invoice reminder payment link";
    // through the API the relevance floor applies: the tagged tool guides share no word with the
    // query and are only its nearest neighbours, so the answer is "no matching entries"
    const viaApi = await as(santos.key).get(`${KB}?q=${encodeURIComponent(q)}&tag=bulk-filter-test&limit=30`);
    expect(viaApi.status).toBe(200);
    expect(viaApi.body.entries).toEqual([]);

    const db = await getDatabase();
    const field: AgentCaller = { type: "agent", agentId: santos.id, name: santos.name, kind: "field", role: "orchestrator", clientId: santos.clientId, kbAccess: "read" };
    const vector = toVectorLiteral((await clustered.embed([q]))[0]!);
    // exact_scan_max = 0 sends even this small filtered set down the HNSW path; min_similarity -1
    // keeps the far (negatively correlated) neighbours too
    const viaIndex = await withClaims(db, claimsFor(field), (tx) =>
      tx.query<{ category: string }>(
        "select category from search_knowledge('', $1::vector, 'test-clusters', 30, 'tool-guide', array['bulk-filter-test'], false, 0.6, -1, 0)",
        [vector],
      ),
    );
    expect(viaIndex).toHaveLength(30);
    // what the function guards against: the same HNSW scan without iterative scanning comes back short
    const plain = await withClaims(db, claimsFor(field), async (tx) => {
      for (const s of ["enable_seqscan", "enable_bitmapscan", "enable_sort"]) await tx.query(`set local ${s} = off`);
      await tx.query("set local hnsw.iterative_scan = off");
      return tx.query(
        `select id from knowledge_entries where vector_dims(embedding) = 1536 and category = 'tool-guide' and tags @> array['bulk-filter-test']
          order by embedding::vector(1536) <#> $1::vector(1536) limit 30`,
        [vector],
      );
    });
    expect(plain.length).toBeLessThan(30);
  });

  it("falls back to full text when the embedding provider is down, and the backfill embeds later", async () => {
    const down: EmbeddingProvider = {
      name: "openai",
      model: "unreachable",
      embed: async () => {
        throw new EmbeddingUnavailableError("unreachable");
      },
    };
    setEmbeddingProviderForTests(down);
    const created = await asUser(curator).post(KB, entry({ title: "Quokka handling offline", content: "quokka procedure written while offline" }));
    expect(created.status).toBe(201);
    expect(created.body.entry.embedded).toBe(false);
    const search = await as(santos.key).get(`${KB}?q=quokka`);
    expect(search.body.semantic).toBe(false);
    expect(search.body.semanticSkipped).toBe("unavailable");
    expect(search.body.entries.map((e: any) => e.id)).toEqual([created.body.entry.id]);

    setEmbeddingProviderForTests(undefined);
    const target = BACKFILL_TARGETS.find((t) => t.table === "knowledge_entries");
    expect(target).toBeDefined();
    const report = await backfillEmbeddings({ targets: [target!] });
    expect(report.remaining).toBe(0);
    const after = (await admin.get(`${KB}/${created.body.entry.id}`)).body.entry;
    expect(after).toMatchObject({ embedded: true, version: 1 });
    // the backfilled vector is the one the write path would have stored
    const db = await getDatabase();
    const [same] = await db.query<{ same: boolean }>("select embedding = $2::vector as same from knowledge_entries where id = $1", [
      after.id,
      toVectorLiteral(embedLocal(`${after.title}\n\n${after.content}`)),
    ]);
    expect(same!.same).toBe(true);
  });
});

describe("import", () => {
  it("validates every item and reports each as created, skipped or refused", async () => {
    const me = asUser(curator);
    await me.post(KB, entry({ title: "Already Here" }));
    const body = {
      entries: [
        { title: "Imported procedure", content: "Step one.", category: "procedure", tags: ["import"] },
        { title: "already here", content: "dup of an existing entry", category: "procedure" },
        { title: "Imported Procedure", content: "dup within the import", category: "procedure" },
        { title: "Bad category", content: "x", category: "gossip" },
        { content: "no title", category: "procedure" },
        "not an object",
      ],
      files: [
        {
          name: "sms-template.md",
          content: "---\ntitle: SMS follow-up template\ncategory: template\ntags: [sms, follow-up]\n---\n\nHi {name}, just checking in about {job}.\n",
        },
        { name: "heading.md", content: "---\ncategory: tool-guide\ntags:\n  - cli\n---\n# Using the CLI\n\nRun `mhq --help`.\n" },
        { name: "extra.md", content: "---\ntitle: Has an author\ncategory: procedure\nauthor: Sam\n---\nbody" },
        { name: "nocat.md", content: "# No category here\n\nbody" },
      ],
    };
    const dry = await me.post(`${KB}/import`, { ...body, dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body.summary).toEqual({ total: 10, created: 0, ready: 3, skipped: 2, refused: 5 });
    expect((await me.get(`${KB}?q=${encodeURIComponent("SMS follow-up template")}`)).body.entries.map((e: any) => e.title)).not.toContain("SMS follow-up template");

    const res = await me.post(`${KB}/import`, body);
    expect(res.status).toBe(200);
    expect(res.body.summary).toEqual({ total: 10, created: 3, ready: 0, skipped: 2, refused: 5 });
    const r = res.body.results;
    expect(r.map((x: any) => x.status)).toEqual(["created", "skipped", "skipped", "refused", "refused", "refused", "created", "created", "refused", "refused"]);
    expect(r[1].reason).toMatch(/published entry already has this title/);
    expect(r[2].reason).toMatch(/item 1 of this import/);
    expect(r[3].reason).toMatch(/category/);
    expect(r[4].reason).toMatch(/title is required/);
    expect(r[8]).toMatchObject({ source: "file", name: "extra.md", reason: expect.stringMatching(/author/) });
    expect(r[9]).toMatchObject({ name: "nocat.md", reason: expect.stringMatching(/category/) });

    const sms = (await me.get(`${KB}/${r[6].id}`)).body.entry;
    expect(sms).toMatchObject({ title: "SMS follow-up template", category: "template", tags: ["sms", "follow-up"], content: "Hi {name}, just checking in about {job}.", embedded: true });
    expect((await me.get(`${KB}/${r[7].id}`)).body.entry).toMatchObject({ title: "Using the CLI", category: "tool-guide", tags: ["cli"] });

    // importing the same files again creates nothing new
    const again = await me.post(`${KB}/import`, { files: body.files.slice(0, 2) });
    expect(again.body.summary).toMatchObject({ created: 0, skipped: 2 });
  });

  it("refuses a file far past the content limit on its own, not the whole import", async () => {
    const huge = `---\ntitle: A very long manual\ncategory: procedure\n---\n${"Step. ".repeat(150_000)}`;
    const res = await asUser(curator).post(`${KB}/import`, {
      files: [
        { name: "fine.md", content: "---\ntitle: A short procedure\ncategory: procedure\n---\nDo this." },
        { name: "huge.md", content: huge },
      ],
      dryRun: true,
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.summary).toMatchObject({ total: 2, ready: 1, refused: 1 });
    expect(res.body.results[1]).toMatchObject({ status: "refused", name: "huge.md", reason: expect.stringMatching(/limited to 100000 characters/) });
  });

  it("refuses an empty or oversized import as a whole", async () => {
    expect((await asUser(curator).post(`${KB}/import`, {})).status).toBe(422);
    const tooMany = Array.from({ length: 501 }, () => entry());
    expect((await asUser(curator).post(`${KB}/import`, { entries: tooMany })).status).toBe(422);
  });
});
