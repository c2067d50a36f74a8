import { describe, expect, it } from "vitest";
import { as } from "../helpers/api";
import { createAgent, rareWord } from "../helpers/fixtures";
import { getDatabase } from "@/lib/db";

// A knowledge search weighs the query's common words too. The first phase ranks the entries holding
// the rarest words; the common words' weight is then added to the best of them, each common word
// read the cheaper way: a word in most of the knowledge base is looked up per candidate, a less
// common one read whole. Either way, an entry that repeats the common word ranks above one that
// holds it once, and both above one that lacks it.

/** `count` published entries holding `words`, bulk-inserted as the owner (the search triggers run). */
async function fill(prefix: string, count: number, words: string) {
  const db = await getDatabase();
  await db.query(
    `insert into knowledge_entries (title, content, category, tags, created_by, updated_by)
     select $1 || ' ' || g, 'Filler ' || g || ' about ' || $2, 'procedure', '{}', 'test', 'test'
       from generate_series(1, $3::int) g`,
    [prefix, words, count],
  );
}

const lexical = (entries: { title: string; lexicalScore: number }[], title: string) =>
  entries.find((e) => e.title === title)?.lexicalScore;

describe("common words in a knowledge search", () => {
  it("add their weight whether found in nearly every entry (probed) or in fewer (read whole)", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const [rare, everywhere, many, alsoMany] = [rareWord(), rareWord(), rareWord(), rareWord()];
    // `everywhere` in 1,700 entries: more than the per-candidate probing threshold (15 × 100 candidates)
    await fill("Everywhere", 1_700, everywhere);
    // `many` in 900 entries, `alsoMany` in those and about 100 more: together beyond the first
    // phase's 1,500 postings, so the commoner of them is added in the second phase, read whole
    await fill("Many", 900, `${many} ${alsoMany}`);
    await fill("Also many", 100, alsoMany);
    const entry = async (title: string, content: string) =>
      (await getDatabase()).query(
        `insert into knowledge_entries (title, content, category, tags, created_by, updated_by) values ($1, $2, 'procedure', '{}', 'test', 'test')`,
        [title, content],
      );
    // the same length in words (no stopwords), so only the common words' counts tell them apart
    const e = everywhere;
    const m = alsoMany;
    await entry("Alpha entry", `${rare} ${e} ${e} ${e} ${m} ${m} ${m}`);
    await entry("Bravo entry", `${rare} ${e} ${m} ribbon canvas meadow tunnel`);
    await entry("Charlie entry", `${rare} ribbon canvas meadow tunnel harbor pebble`);

    const search = async (q: string) => {
      const res = await as(agent.key).get(`/api/v1/knowledge?q=${encodeURIComponent(q)}&limit=20`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.entries as { title: string; lexicalScore: number }[];
    };

    // probed: `everywhere` is in more entries than the threshold
    const probed = await search(`${rare} ${everywhere}`);
    expect(lexical(probed, "Alpha entry")).toBe(1);
    expect(lexical(probed, "Bravo entry")).toBeLessThan(1);
    expect(lexical(probed, "Charlie entry")).toBeLessThan(lexical(probed, "Bravo entry")!);

    // read whole: `alsoMany` (1,001 entries) is commoner than `many` (900), and the two together
    // pass the first phase's budget
    const whole = await search(`${rare} ${many} ${alsoMany}`);
    expect(lexical(whole, "Alpha entry")).toBe(1);
    expect(lexical(whole, "Bravo entry")).toBeLessThan(1);
    expect(lexical(whole, "Charlie entry")).toBeLessThan(lexical(whole, "Bravo entry")!);
  });
});
