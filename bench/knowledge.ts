// HQ knowledge base: hybrid search at 1k and then 10k entries, with and without a category filter,
// and with misspelt words (the spelling check and the corrected search), measured the way
// GET /api/v1/knowledge?q= runs it for a field agent: the query embedded by the local embedder,
// search_knowledge under the agent's RLS, and the access counters of the served entries bumped.
// HTTP and JSON are not included.
//
// The corpus is built from the demo knowledge base's own sentences, shuffled into new entries with
// a few rarer words each, so full text and vectors both have something to find and both halves of
// the fusion do real work. Entries are bulk-loaded (unnest of arrays, local embeddings) into a
// fresh in-memory PGlite with the real migrations, HNSW index included.
import type { AgentCaller } from "@/lib/auth/caller";
import { setDatabaseForTests } from "@/lib/db";
import { withClaims, claimsFor } from "@/lib/db/caller";
import { migrate } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import type { Database } from "@/lib/db/types";
import { toVectorLiteral } from "@/lib/embeddings";
import { embedLocal, LOCAL_MODEL } from "@/lib/embeddings/local";
import { demoKnowledge } from "@/lib/demo/knowledge";
import { knowledgeEmbeddingText } from "@/lib/knowledge/embedding-text";
import { KNOWLEDGE_CATEGORIES } from "@/lib/knowledge/schemas";
import { flushTermStats, noteSearchWrite } from "@/lib/retrieval/search/term-stats";
import { listKnowledge } from "@/lib/knowledge/service";
import { flushAccessCounts } from "@/lib/retrieval/usage/access-counts";
import { measure, type BenchRow } from "./measure";

const RUNS = 100;
const BATCH = 250;
const LIMIT = 10;

const FIELD_AGENT: AgentCaller = {
  type: "agent",
  agentId: "00000000-0000-4000-8000-00000000b0b0",
  name: "Bench Field Agent",
  kind: "field",
  role: "orchestrator",
  clientId: "00000000-0000-4000-8000-00000000c11e",
  kbAccess: "read",
};

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    s ^= s + Math.imul(s ^ (s >>> 7), 61);
    return ((s ^ (s >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = "ka ro mi tu ze la vo ni sha pe dri qua lo ben tor vex ul ar im os".split(" ");

export function corpus(seed: number) {
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const demo = demoKnowledge();
  const sentences = demo.flatMap((e) =>
    e.content
      .replace(/[`*#|>{}[\]]/g, " ")
      .split(/(?<=[.!?])\s+|\n+/)
      .map((s) => s.replace(/\s+/g, " ").trim())
      .filter((s) => s.split(" ").length >= 5),
  );
  const titles = demo.map((e) => e.title);
  // rarer words: a few per entry, so keyword search is selective as it is on real text
  const rare = Array.from({ length: 4000 }, () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(SYLLABLES)).join(""));
  return {
    entry(i: number) {
      const extra = Array.from({ length: 3 }, () => pick(rare));
      const title = `${pick(titles)}: ${extra[0]} ${extra[1]} #${i}`;
      const body = Array.from({ length: 4 + Math.floor(random() * 6) }, () => pick(sentences));
      body.splice(Math.floor(random() * body.length), 0, `See also ${extra.join(", ")}.`);
      return { title, content: body.join(" "), category: KNOWLEDGE_CATEGORIES[i % KNOWLEDGE_CATEGORIES.length]!, tags: [extra[2]!] };
    },
    query() {
      const s = pick(sentences).split(" ");
      const start = Math.floor(random() * Math.max(1, s.length - 5));
      return s.slice(start, start + 3 + Math.floor(random() * 4)).join(" ");
    },
  };
}

/**
 * Searches with typos, as people type them: two words of a demo title (five letters or more), each
 * with two neighbouring letters swapped ("refnud polciy"). From a random sequence of their own, so
 * the corpus stays what it was.
 */
export function misspeltQueries(seed: number, n: number): string[] {
  const random = rng(seed);
  const words = [...new Set(demoKnowledge().flatMap((e) => e.title.toLowerCase().match(/\p{L}{5,}/gu) ?? []))];
  const swapped = (w: string) => {
    const at = 1 + Math.floor(random() * (w.length - 2));
    return w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2);
  };
  return Array.from({ length: n }, () => `${swapped(words[Math.floor(random() * words.length)]!)} ${swapped(words[Math.floor(random() * words.length)]!)}`);
}

type Corpus = ReturnType<typeof corpus>;

export async function load(db: Database, c: Corpus, from: number, to: number) {
  for (let start = from; start < to; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, to - start) }, (_, k) => c.entry(start + k));
    await db.query(
      `insert into knowledge_entries (title, content, category, tags, created_by, updated_by, embedding, embedding_model)
       select t.title, t.content, t.category, array[t.tag], 'bench', 'bench', t.embedding::vector, '${LOCAL_MODEL}'
         from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) as t (title, content, category, tag, embedding)`,
      [
        rows.map((r) => r.title),
        rows.map((r) => r.content),
        rows.map((r) => r.category),
        rows.map((r) => r.tags[0]!),
        rows.map((r) => toVectorLiteral(embedLocal(knowledgeEmbeddingText(r)))),
      ],
    );
  }
  // what the server's statistics job does a moment after writes: the log folded in, postings vacuumed
  noteSearchWrite();
  await flushTermStats();
  await db.exec("analyze knowledge_entries");
}

/**
 * How many of the exact 10 nearest neighbours the function's vector half finds (its candidates are
 * what the weighted fusion scores), over `queries`. An empty query text leaves only the vector half.
 */
async function semanticRecall(db: Database, queries: string[], category: string | null) {
  let found = 0;
  let total = 0;
  for (const q of queries) {
    const vector = toVectorLiteral(embedLocal(q));
    const viaFunction = await withClaims(db, claimsFor(FIELD_AGENT), (tx) =>
      tx.query<{ id: string }>(`select id from search_knowledge('', $1::vector, '${LOCAL_MODEL}', $2, $3, null, false, 0.6, -1)`, [vector, LIMIT, category]),
    );
    const exact = await db.transaction(async (tx) => {
      await tx.query("set local enable_indexscan = off");
      return tx.query<{ id: string }>(
        `select id from knowledge_entries where status = 'published' and ($2::text is null or category = $2)
          order by embedding <#> $1::vector limit ${LIMIT}`,
        [vector, category],
      );
    });
    const got = new Set(viaFunction.map((r) => r.id));
    found += exact.filter((r) => got.has(r.id)).length;
    total += exact.length;
  }
  return total ? found / total : NaN;
}

export async function benchKnowledge(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const { db } = await openPglite();
  await migrate(db);
  setDatabaseForTests(db);
  try {
    const c = corpus(4);
    const queries = Array.from({ length: 60 }, () => c.query());
    const misspelt = misspeltQueries(5, 60);
    let loaded = 0;
    for (const size of [1_000, 10_000]) {
      const started = performance.now();
      await load(db, c, loaded, size);
      process.stderr.write(`bench: knowledge ${size} entries loaded (+${size - loaded} in ${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
      loaded = size;
      const label = `${size / 1000}k`;
      const category = "escalation";
      const perCategory = size / KNOWLEDGE_CATEGORIES.length;

      let returned = 0;
      const search = (cat?: string) => async (i: number) => {
        const r = await listKnowledge(FIELD_AGENT, { q: queries[i % queries.length]!, category: cat as never, status: "published", limit: LIMIT, offset: 0 });
        // at most LIMIT: the relevance floor leaves out what does not match (a query of stopwords
        // finds only what is very close in meaning)
        if (r.mode !== "search" || r.entries.length > LIMIT) throw new Error(`expected at most ${LIMIT} results, got ${r.mode}`);
        if (cat && r.entries.some((e) => e.category !== cat)) throw new Error("the category filter leaked");
        returned += r.entries.length;
      };
      const recall = await semanticRecall(db, queries.slice(0, 20), null);
      rows.push(
        await measure(`knowledge hybrid search, ${label} entries`, { n: RUNS, notes: `top ${LIMIT}, field agent under RLS, counters bumped; vector recall@${LIMIT} vs exact ${recall.toFixed(2)}` }, search()),
      );
      const filteredRecall = await semanticRecall(db, queries.slice(0, 20), category);
      const path = perCategory > 1000 ? "HNSW iterative scan" : "exact scan";
      rows.push(
        await measure(`knowledge hybrid search + category, ${label}`, {
          n: RUNS,
          notes: `category=${category} (${Math.round(perCategory)} entries, ${path}); vector recall@${LIMIT} ${filteredRecall.toFixed(2)}`,
        }, search(category)),
      );
      // misspelt words find few entries as typed, so the spelling check runs and the corrected words are searched too
      let suggested = 0;
      for (const q of misspelt) {
        const r = await listKnowledge(FIELD_AGENT, { q, status: "published", limit: LIMIT, offset: 0 });
        if (r.mode === "search" && r.didYouMean) suggested++;
      }
      rows.push(
        await measure(`knowledge search, misspelt words, ${label}`, {
          n: RUNS,
          notes: `two words of a title, two letters swapped in each: "did you mean" for ${suggested} of ${misspelt.length}`,
        }, async (i) => {
          await listKnowledge(FIELD_AGENT, { q: misspelt[i % misspelt.length]!, status: "published", limit: LIMIT, offset: 0 });
        }),
      );
      if (returned === 0) throw new Error("no search returned anything");
    }
  } finally {
    // the served entries' access events are folded before the database closes, not after
    await flushAccessCounts();
    setDatabaseForTests(undefined);
    await db.close();
  }
  return rows;
}
