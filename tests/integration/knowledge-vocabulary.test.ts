import { beforeAll, describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { admin, as } from "../helpers/api";
import { createAgent, createClient, type TestAgent } from "../helpers/fixtures";

// The spelling check's known words (knowledge_vocabulary) are counted with the entries every reader
// reads: written, edited, archived, deleted, and an import's only once it is published.

let field: TestAgent;
/** a made-up word per run (letters only), so words of other tests' entries never count here */
const marker = (base: string) => base + Array.from({ length: 5 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");

async function entriesHolding(word: string): Promise<number | null> {
  const rows = await (await getDatabase()).query<{ entries: number }>("select entries from knowledge_vocabulary where word = $1", [word]);
  return rows[0]?.entries ?? null;
}

/** The words every reader reads, counted from the entries themselves (as the migration first counts them). */
async function recounted() {
  return (await getDatabase()).query<{ word: string; entries: number }>(
    `select w.word, count(*)::int as entries
       from knowledge_entries k cross join lateral mhq.knowledge_title_words(k.title, k.tags) w(word)
      where mhq.knowledge_entry_read(k.status, k.import_id)
      group by w.word order by w.word`,
  );
}

beforeAll(async () => {
  field = await createAgent({ kind: "field", role: "specialist", clientId: (await createClient()).id });
});

describe("the spelling check's known words", () => {
  it("follow an entry written, edited, archived, restored and deleted", async () => {
    const first = marker("zephyrine");
    const second = marker("quillonet");
    const tag = marker("tagword");
    const created = await admin.post("/api/v1/knowledge", { title: `${first} routing rules`, content: "How calls are routed.", category: "procedure", tags: [tag] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.entry.id as string;
    expect(await entriesHolding(first)).toBe(1);
    expect(await entriesHolding(tag)).toBe(1);

    // a second entry holding the same word: counted twice; the word stays while either holds it
    const other = await admin.post("/api/v1/knowledge", { title: `${first} escalation path`, content: "Who to call.", category: "escalation" });
    expect(other.status).toBe(201);
    expect(await entriesHolding(first)).toBe(2);

    const edited = await admin.patch(`/api/v1/knowledge/${id}`, { title: `${second} routing rules`, tags: [] });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(await entriesHolding(first)).toBe(1);
    expect(await entriesHolding(second)).toBe(1);
    expect(await entriesHolding(tag)).toBeNull();

    // archived: no reader reads it, so its words go
    expect((await admin.delete(`/api/v1/knowledge/${id}`)).status).toBe(200);
    expect(await entriesHolding(second)).toBeNull();
    expect((await admin.patch(`/api/v1/knowledge/${id}`, { status: "published" })).status).toBe(200);
    expect(await entriesHolding(second)).toBe(1);

    await (await getDatabase()).query("delete from knowledge_entries where id = any($1::uuid[])", [[id, other.body.entry.id]]);
    expect(await entriesHolding(first)).toBeNull();
    expect(await entriesHolding(second)).toBeNull();
  });

  it("hold an import's words only once the import is published, and a search is offered none before", async () => {
    const db = await getDatabase();
    const word = marker("brindlewort");
    // an import being written: its row hides its entries from every reader
    const [imp] = await db.query<{ id: string }>("insert into knowledge_imports (actor_type, entries, lease_until) values ('admin_key', 1, now() + interval '1 minute') returning id");
    await db.query(
      "insert into knowledge_entries (title, content, category, import_id, created_by, updated_by) values ($1, 'Staged, not published yet.', 'procedure', $2, 'test', 'test')",
      [`${word} checklist`, imp!.id],
    );
    expect(await entriesHolding(word)).toBeNull();
    const typo = word.slice(0, 4) + word[5] + word[4] + word.slice(6);
    const before = await as(field.key).get(`/api/v1/knowledge?q=${encodeURIComponent(typo)}`);
    expect(before.status).toBe(200);
    expect(before.body.didYouMean).toBeUndefined();

    // published (its row goes): the words are known, and the typo is read as the word
    await db.query("delete from knowledge_imports where id = $1", [imp!.id]);
    expect(await entriesHolding(word)).toBe(1);
    const after = await as(field.key).get(`/api/v1/knowledge?q=${encodeURIComponent(typo)}`);
    expect(after.body.didYouMean).toBe(word);
  });

  it("stay equal to the words counted from the entries themselves, across the API's imports and edits", async () => {
    const base = marker("larkspur");
    const imported = await admin.post("/api/v1/knowledge/import", {
      entries: [0, 1, 2].map((i) => ({ title: `${base} step ${i}`, content: `Step ${i} of the ${base} procedure.`, category: "procedure", tags: [`${base}tag`] })),
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(await entriesHolding(base)).toBe(3);
    expect(await entriesHolding(`${base}tag`)).toBe(3);
    const known = await (await getDatabase()).query("select word, entries from knowledge_vocabulary order by word");
    expect(known).toEqual(await recounted());
  });

  it("stay counted when writers sharing words write at once (each locks the words in the same order)", async () => {
    const shared = [marker("ambertide"), marker("corvelin"), marker("duskmere")];
    const writes = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        admin.post("/api/v1/knowledge", {
          title: `${shared[i % 3]} ${shared[(i + 1) % 3]} note ${i}`,
          content: `Shared words, written at once (${i}).`,
          category: "procedure",
          tags: [shared[(i + 2) % 3]],
        }),
      ),
    );
    expect(writes.map((w) => w.status)).toEqual(Array(12).fill(201));
    for (const word of shared) expect(await entriesHolding(word)).toBe(12);
    const known = await (await getDatabase()).query("select word, entries from knowledge_vocabulary order by word");
    expect(known).toEqual(await recounted());
  });

  it("are read by HQ users and agents, and written by nobody but the triggers", async () => {
    const db = await getDatabase();
    const agent = claimsFor({ type: "agent", agentId: field.id, name: field.name, kind: "field", role: "specialist", clientId: field.clientId, kbAccess: "read" });
    const viewer = claimsFor({ type: "hq", userId: null, name: "viewer", email: null, role: "viewer" });
    for (const who of [agent, viewer]) {
      const rows = await withClaims(db, who, (tx) => tx.query<{ n: number }>("select count(*)::int as n from knowledge_vocabulary"));
      expect(rows[0]!.n).toBeGreaterThan(0);
      await expect(withClaims(db, who, (tx) => tx.query("insert into knowledge_vocabulary (word, entries) values ('planted', 1)"))).rejects.toThrow(/permission denied/);
      await expect(withClaims(db, who, (tx) => tx.query("update knowledge_vocabulary set entries = 0"))).rejects.toThrow(/permission denied/);
      await expect(withClaims(db, who, (tx) => tx.query("delete from knowledge_vocabulary"))).rejects.toThrow(/permission denied/);
    }
  });
});
