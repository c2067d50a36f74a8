// A knowledge import is written in short steps and published at once: nothing of it is visible
// midway, to anyone, by the API or in the database; an import that fails or whose process stops
// leaves nothing.
import { afterEach, describe, expect, it } from "vitest";
import type { Caller } from "@/lib/auth/caller";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { releaseImportsOfStoppedProcess, runImportJanitor, setImportStepHookForTests } from "@/lib/knowledge/import-staging";
import { api, as } from "../helpers/api";
import { createAgent, createHqUser, rareWord } from "../helpers/fixtures";

const KB = "/api/v1/knowledge";
const entries = (word: string, n = 20) =>
  Array.from({ length: n }, (_, i) => ({ title: `Import ${word} ${i}`, content: `How to handle ${word}, step ${i}.`, category: "procedure", tags: ["imported"] }));

/** Entries with these titles in the database (as the owning role, past RLS), and how many are hidden. */
async function stored(word: string) {
  const [row] = await (await getDatabase()).query<{ n: number; hidden: number }>(
    `select count(*)::int as n, count(*) filter (where import_id = any (mhq.hidden_knowledge_imports()))::int as hidden
       from knowledge_entries where title like $1`,
    [`Import ${word} %`],
  );
  return row!;
}

const hq = (role: "admin" | "curator", userId: string | null = null): Caller => ({ type: "hq", userId, name: role, email: null, role });

function pauseAt(at: string) {
  let release!: () => void;
  let reached!: () => void;
  const opened = new Promise<void>((r) => (release = r));
  const paused = new Promise<void>((r) => (reached = r));
  let done = false;
  setImportStepHookForTests(async (step) => {
    if (done || step !== at) return;
    done = true;
    reached();
    await opened;
  });
  return { paused, release };
}

afterEach(() => setImportStepHookForTests(undefined));

describe("a knowledge import written in steps", () => {
  it("is invisible to every reader until it is published, then visible whole; the import row is its writer's alone", async () => {
    const curator = await createHqUser("curator");
    const other = await createHqUser("curator");
    const writer = await createAgent({ kind: "internal", role: "specialist", kbAccess: "write" });
    const reader = await createAgent({ kind: "internal", role: "orchestrator" });
    const word = rareWord();
    const gate = pauseAt("write");
    const importing = api("POST", `${KB}/import`, { cookie: curator.cookie, body: { entries: entries(word) } });
    await gate.paused;

    const midway = await stored(word);
    expect(midway.n).toBeGreaterThan(0);
    expect(midway.hidden).toBe(midway.n);
    for (const who of [{ cookie: curator.cookie }, { cookie: other.cookie }]) {
      const listed = await api("GET", `${KB}?q=${encodeURIComponent(word)}`, who);
      expect(listed.status).toBe(200);
      expect(listed.body.entries).toEqual([]);
    }
    expect((await as(reader.key).get(`${KB}?q=${encodeURIComponent(word)}`)).body.entries).toEqual([]);
    // a title being imported is taken, by an entry nobody sees yet
    const clash = await api("POST", KB, { cookie: other.cookie, body: entries(word)[0] });
    expect(clash.status).toBe(409);

    const db = await getDatabase();
    const importId = (await db.query<{ id: string }>("select id from knowledge_imports order by created_at desc limit 1"))[0]!.id;
    const asCurator = (sql: string, params: unknown[] = []) => withClaims(db, claimsFor(hq("curator", curator.id)), (tx) => tx.query(sql, params));
    const asOther = (sql: string, params: unknown[] = []) => withClaims(db, claimsFor(hq("curator", other.id)), (tx) => tx.query(sql, params));
    const asWriter = (sql: string, params: unknown[] = []) =>
      withClaims(
        db,
        claimsFor({ type: "agent", agentId: writer.id, name: writer.name, kind: "internal", role: "specialist", clientId: null, kbAccess: "write" }),
        (tx) => tx.query(sql, params),
      );
    expect(await asCurator("select id from knowledge_imports")).toEqual([{ id: importId }]);
    expect(await asCurator("select id from knowledge_entries where title like $1", [`Import ${word} %`])).toEqual([]);
    expect(await asOther("select id from knowledge_imports")).toEqual([]);
    expect(await asWriter("select id from knowledge_imports")).toEqual([]);
    expect(await asOther("update knowledge_imports set state = 'abandoned' where id = $1 returning id", [importId])).toEqual([]);
    await expect(asOther("select mhq.publish_knowledge_import($1)", [importId])).rejects.toMatchObject({ code: "MHQ10" });
    await expect(asWriter("select mhq.publish_knowledge_import($1)", [importId])).rejects.toMatchObject({ code: "MHQ10" });
    expect(await asWriter("select mhq.knowledge_import_written($1, array(select id from knowledge_entries)) as ids", [importId])).toEqual([{ ids: [] }]);
    // nor writes an entry into it
    await expect(
      asWriter("insert into knowledge_entries (title, content, category, import_id) values ('smuggled', 'x', 'procedure', $1)", [importId]),
    ).rejects.toMatchObject({ code: "42501" });

    gate.release();
    const res = await importing;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.summary).toMatchObject({ created: 20, skipped: 0 });
    expect(await stored(word)).toEqual({ n: 20, hidden: 0 });
    const found = await as(reader.key).get(`${KB}?q=${encodeURIComponent(word)}&limit=50`);
    expect(found.body.entries).toHaveLength(20);
    expect(await db.query("select 1 from knowledge_imports where id = $1", [importId])).toEqual([]);
  });

  it("a step that fails leaves nothing; the janitor deletes what it wrote, and the import again creates it all", async () => {
    const curator = await createHqUser("curator");
    const word = rareWord();
    let steps = 0;
    setImportStepHookForTests((step) => {
      if (step === "write" && ++steps === 2) throw new Error("the disk filled up");
    });
    const failed = await api("POST", `${KB}/import`, { cookie: curator.cookie, body: { entries: entries(word) } });
    expect(failed.status).toBe(500);
    setImportStepHookForTests(undefined);
    expect((await stored(word)).n).toBe((await stored(word)).hidden);
    await runImportJanitor();
    expect(await stored(word)).toEqual({ n: 0, hidden: 0 });
    const again = await api("POST", `${KB}/import`, { cookie: curator.cookie, body: { entries: entries(word) } });
    expect(again.body.summary).toMatchObject({ created: 20 });
    expect(await stored(word)).toEqual({ n: 20, hidden: 0 });
  });

  it("an import whose process stopped midway is given up at the next start and cleared", async () => {
    const curator = await createHqUser("curator");
    const word = rareWord();
    const gate = pauseAt("write");
    const stranded = api("POST", `${KB}/import`, { cookie: curator.cookie, body: { entries: entries(word) } });
    await gate.paused;
    await releaseImportsOfStoppedProcess(await getDatabase());
    await runImportJanitor();
    expect(await stored(word)).toEqual({ n: 0, hidden: 0 });
    gate.release();
    expect((await stranded).status).toBe(503);
    // (the clean-up the failed step started ends before the database closes)
    await runImportJanitor();
    expect(await stored(word)).toEqual({ n: 0, hidden: 0 });
  });
});
