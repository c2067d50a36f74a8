import { afterEach, describe, expect, it } from "vitest";
import { admin, api, as } from "../helpers/api";
import { transport } from "../helpers/db";
import { createAgent, createClient, createHqUser, rareWord, type TestAgent } from "../helpers/fixtures";
import { currentTestDatabase } from "../helpers/setup-env";
import type { AgentCaller } from "@/lib/auth/caller";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { setEmbeddingProviderForTests, type EmbeddingProvider } from "@/lib/embeddings";
import { backfillEmbeddings, countQueued } from "@/lib/embeddings/backfill";
import { EARLIER_LOCAL_MODELS, embedLocal, LOCAL_MODEL } from "@/lib/embeddings/local";
import { countLocalReembedQueue, reembedForLocalModel } from "@/lib/embeddings/local-upgrade";
import { searchableText, type Attachment } from "@/lib/memories/attachments";
import { conversationQueryVector } from "@/lib/retrieval/search/conversation-ranker";
import { RELATED_TURN_SIMILARITY, STRONG_SIMILARITY } from "@/lib/retrieval/search/relevance";
import { flushTermStats } from "@/lib/retrieval/search/term-stats";

// Retrieval quality rules: BM25F over conversations with their context (under RLS, on every
// transport), the relevance floor, honest scopes, and vectors that record their model.

const word = rareWord;
const retrieve = (agent: TestAgent, body: Record<string, unknown>) => as(agent.key).post("/api/v1/retrieve", body);
const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((i) => i.id);

let minute = 0;
/** One turn of a conversation on the chat channel, a minute after the previous one. */
async function turn(agent: TestAgent, speaker: string, content: string, extra: Record<string, unknown> = {}) {
  minute++;
  const res = await as(agent.key).post("/api/v1/interactions", {
    channel: "chat",
    direction: "inbound",
    speaker,
    content: `${speaker}: ${content}`,
    occurredAt: new Date(Date.UTC(2026, 0, 5, 9, minute)).toISOString(),
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.interaction.id as string;
}

const callerOf = (a: TestAgent, kind: "internal" | "field", role: AgentCaller["role"]): AgentCaller => ({
  type: "agent",
  agentId: a.id,
  name: a.name,
  kind,
  role,
  clientId: a.clientId,
  kbAccess: "read",
});

afterEach(() => setEmbeddingProviderForTests(undefined));

describe("conversations ranked by BM25F with their context, under RLS", () => {
  it("ranks the turn holding the rare words first, finds an answer through the question before it, and never another client's", async () => {
    const clientA = await createClient();
    const clientB = await createClient();
    const a = await createAgent({ kind: "field", role: "orchestrator", clientId: clientA.id });
    const b = await createAgent({ kind: "field", role: "orchestrator", clientId: clientB.id });
    const rare = word();
    // filler so that common words are common
    for (let i = 0; i < 6; i++) await turn(a, "Pat", `The water heater schedule for week ${i} is fine, thanks`);
    const best = await turn(a, "Pat", `The ${rare} water heater leaked twice, the ${rare} valve needs replacing`);
    await turn(a, "Pat", `One mention of the ${rare} part`);
    // the answer turn holds none of the question's words: the turn before it does
    const question = await turn(a, "Agent", "Which brand of tankless boiler did your landlord install?");
    const answer = await turn(a, "Pat", "It was a Rinnai, put in last spring.");
    await turn(b, "Kim", `Our ${rare} water heater is fine`);
    await flushTermStats();

    const found = await retrieve(a, { message: `What happened with the ${rare} water heater?`, scopes: ["interactions"] });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(ids(found)[0]).toBe(best);
    expect(found.body.items.every((i: { score: number }) => i.score > 0 && i.score <= 1)).toBe(true);
    expect(found.body.items[0].score).toBeGreaterThanOrEqual(found.body.items[1]?.score ?? 0);

    const context = await retrieve(a, { message: "tankless boiler landlord", scopes: ["interactions"] });
    expect(ids(context).slice(0, 2).sort()).toEqual([answer, question].sort());

    // client B's agent sees only its own client's conversation
    const other = await retrieve(b, { message: `What happened with the ${rare} water heater?`, scopes: ["interactions"] });
    expect(other.status).toBe(200);
    expect(other.body.items).toHaveLength(1);
    expect(ids(other)).not.toContain(best);
  });

  it("scores a turn as part of its conversation: the conversation about the asked thing first, its late first turn relabelling it", async () => {
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const place = word();
    const pet = word();
    const at = (day: number, m: number) => ({ occurredAt: new Date(Date.UTC(2026, 2, day, 9, m)).toISOString() });
    // other conversations, so that words are as rare as they are in a real history
    for (let day = 12; day < 24; day++) {
      await turn(me, "Ben", "Any news about the garden and the weekend plans?", at(day, 0));
      await turn(me, "Ana", "Nothing much, the garden needs work and the weekend is busy.", at(day, 1));
      await turn(me, "Ben", "Same here, talk soon.", at(day, 2));
    }
    // the conversation about the trip to <place> holds the answer about the <pet>, in words of its own
    await turn(me, "Ana", `We are finally going to ${place} next week!`, at(2, 0));
    await turn(me, "Ben", "How exciting, who is coming along?", at(2, 1));
    const answer = await turn(me, "Ana", `Just me and my ${pet}, she loves long drives.`, at(2, 2));
    // another conversation that mentions the pet but not the trip
    const elsewhere = [
      await turn(me, "Ben", `Did you ever get a ${pet}?`, at(9, 0)),
      await turn(me, "Ana", "Not yet, still thinking about it.", at(9, 1)),
      await turn(me, "Cal", `A ${pet} would suit you.`, at(9, 2)),
    ];
    await flushTermStats();

    const found = await retrieve(me, { message: `Who did Ana take with her to ${place}, a ${pet}?`, scopes: ["interactions"] });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    // the trip's conversation comes first: its opening turn or the answer, then the other
    const rank = (id: string) => (ids(found).indexOf(id) < 0 ? Infinity : ids(found).indexOf(id));
    expect(rank(answer)).toBeLessThan(2);
    for (const id of elsewhere) expect(rank(answer)).toBeLessThan(rank(id));
    const top = found.body.items[rank(answer)].meta;
    const other = found.body.items.filter((i: { id: string }) => elsewhere.includes(i.id));
    expect(other.length).toBeGreaterThan(0);
    for (const o of other) expect(top.conversationCoverage).toBeGreaterThan(o.meta.conversationCoverage);
    expect(top.contextSimilarity).toBeGreaterThan(0);

    // a turn arriving late, before the others, becomes the start of their conversation
    const db = await getDatabase();
    const early = await turn(me, "Ana", `Booked the cabin in ${place}.`, at(2, -1));
    const labels = await db.query<{ c: string }>(
      `select distinct d.conversation_id::text as c from interaction_search_docs d join interactions i on i.id = d.interaction_id
        where i.agent_id = $1 and i.occurred_at < $2`,
      [me.id, new Date(Date.UTC(2026, 2, 3))],
    );
    expect(labels).toEqual([{ c: early }]);
  });

  it("keeps postings and term statistics to the callers who may read the conversations, in the database itself", async () => {
    const clientA = await createClient();
    const clientB = await createClient();
    const a = await createAgent({ kind: "field", role: "orchestrator", clientId: clientA.id });
    const b = await createAgent({ kind: "field", role: "orchestrator", clientId: clientB.id });
    const specialist = await createAgent({ kind: "internal", role: "specialist" });
    const manager = await createAgent({ kind: "internal", role: "manager" });
    const rare = word();
    const id = await turn(a, "Pat", `The ${rare} boiler is fixed`);
    await turn(specialist, "Lee", `Specialist notes on ${rare}`);
    await flushTermStats();

    const db = await getDatabase();
    const read = (c: AgentCaller) =>
      withClaims(db, claimsFor(c), async (tx) => ({
        postings: (await tx.query<{ interaction_id: string }>("select interaction_id from interaction_postings where lexeme = $1", [rare])).map((r) => r.interaction_id),
        docs: (await tx.query("select 1 from interaction_search_docs where interaction_id = $1", [id])).length,
        stats: (await tx.query<{ scope_id: string }>("select scope_id from interaction_term_stats where lexeme = $1", [rare])).map((r) => r.scope_id),
        corpus: (await tx.query<{ scope_id: string }>("select scope_id from interaction_corpus_stats")).map((r) => r.scope_id),
        lexical: (await tx.query("select * from mhq.interaction_lexical_candidates($1, null, $2, 10)", [rare, clientA.id])).length,
      }));
    const own = await read(callerOf(a, "field", "orchestrator"));
    expect(own.postings).toEqual([id]);
    expect(own.docs).toBe(1);
    expect(own.stats).toEqual([clientA.id]);
    expect(own.corpus).toEqual([clientA.id]);
    expect(own.lexical).toBe(1);

    const otherClient = await read(callerOf(b, "field", "orchestrator"));
    expect(otherClient).toEqual({ postings: [], docs: 0, stats: [], corpus: [], lexical: 0 });
    const noReader = await read(callerOf(specialist, "internal", "specialist"));
    expect(noReader).toEqual({ postings: [], docs: 0, stats: [], corpus: [], lexical: 0 });
    // internal managers read every conversation, as interactions_select says
    const all = await read(callerOf(manager, "internal", "manager"));
    expect(all.postings).toHaveLength(2);

    // and nobody but the functions writes them
    await expect(
      withClaims(db, claimsFor(callerOf(a, "field", "orchestrator")), (tx) =>
        tx.query("update interaction_postings set tf = 100 where interaction_id = $1", [id]),
      ),
    ).rejects.toThrow();
  });

  it("takes deleted and redacted text out of the postings and the statistics at once (opt-out erasure)", async () => {
    const client = await createClient();
    const a = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    const gone = word();
    const redacted = word();
    const first = await turn(a, "Pat", `Ask ${gone} about the boiler`);
    const second = await turn(a, "Pat", `And ${redacted} about the heater`);
    await flushTermStats();
    const db = await getDatabase();
    const lexemes = async () =>
      (await db.query<{ lexeme: string }>(
        `select lexeme from interaction_postings where lexeme = any($1)
         union all select lexeme from interaction_term_stats where lexeme = any($1)`,
        [[gone, redacted]],
      )).map((r) => r.lexeme);
    expect(new Set(await lexemes())).toEqual(new Set([gone, redacted]));

    // what mhq.erase_contact does: delete a contact's interactions, redact mentions elsewhere
    await db.query("delete from interactions where id = $1", [first]);
    await db.query("update interactions set content = replace(content, $2, '[erased]') where id = $1", [second, redacted]);
    expect(await lexemes()).toEqual([]);
  });

  it.runIf(transport === "postgres")("stays consistent under concurrent writes to one conversation and concurrent statistics rebuilds", async () => {
    const client = await createClient();
    const a = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    const pool = currentTestDatabase().connect!(8);
    try {
      const caller = callerOf(a, "field", "orchestrator");
      const base = Date.UTC(2026, 1, 1, 10);
      const writes = Array.from({ length: 24 }, (_, i) =>
        withClaims(pool, claimsFor(caller), (tx) =>
          tx.query(
            `insert into interactions (client_id, agent_id, channel, direction, speaker, content, occurred_at)
             values ($1, $2, 'chat', 'inbound', 'Pat', $3, $4)`,
            [client.id, a.id, `Pat: message ${i} about the boiler number${i}`, new Date(base + (i % 12) * 1000 + Math.floor(i / 12))],
          ),
        ),
      );
      const rebuilds = Array.from({ length: 4 }, () => pool.transaction((tx) => tx.query("select mhq.refresh_interaction_stats('client', $1)", [client.id])));
      await Promise.all([...writes, ...rebuilds]);

      const db = await getDatabase();
      // every row's postings are what indexing it now gives (its final neighbours included)
      const postings = () =>
        db.query<{ interactionId: string; lexeme: string; tf: number }>(
          `select p.interaction_id as "interactionId", p.lexeme, round(p.tf::numeric, 4)::float8 as tf
             from interaction_postings p join interactions i on i.id = p.interaction_id
            where i.agent_id = $1 order by 1, 2`,
          [a.id],
        );
      const written = await postings();
      expect(written.length).toBeGreaterThan(24);
      await db.query("select mhq.index_interactions(array(select id from interactions where agent_id = $1))", [a.id]);
      expect(await postings()).toEqual(written);
      // every row knows its final neighbours, and all belong to the conversation of the first turn
      const docs = await db.query<{ id: string; prevId: string | null; nextId: string | null; conversationId: string }>(
        `select i.id, d.prev_id as "prevId", d.next_id as "nextId", d.conversation_id as "conversationId"
           from interactions i join interaction_search_docs d on d.interaction_id = i.id
          where i.agent_id = $1 order by i.occurred_at, i.id`,
        [a.id],
      );
      expect(docs).toHaveLength(24);
      docs.forEach((d, i) => {
        expect(d.prevId).toBe(docs[i - 1]?.id ?? null);
        expect(d.nextId).toBe(docs[i + 1]?.id ?? null);
        expect(d.conversationId).toBe(docs[0]!.id);
      });
      await db.query("select mhq.refresh_interaction_stats('client', $1)", [client.id]);
      const [stats] = await db.query<{ n: number }>("select n from interaction_corpus_stats where scope_kind = 'client' and scope_id = $1", [client.id]);
      expect(stats!.n).toBe(24);
    } finally {
      await pool.close();
    }
  });
});

describe("the question adapter", () => {
  it("compares a conversation turn with the message's vector mapped by the ranker's adapter, a memory with it as it is", async () => {
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const rare = word();
    const said = await turn(me, "Dana", `I replaced the ${rare} thermocouple on the heater last week, no luck`);
    const mem = await as(me.key).post("/api/v1/agents/me/memories", {
      tier: "core",
      category: "procedure",
      confidence: 0.9,
      title: `The ${rare} heater`,
      content: "Replacing its thermocouple did not help.",
    });
    expect(mem.status, JSON.stringify(mem.body)).toBe(201);
    await flushTermStats();
    const message = `What did Dana try on the ${rare} heater?`;
    const res = await retrieve(me, { message, scopes: ["interactions", "memories"] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const items = res.body.items as { id: string; meta: { similarity: number | null } }[];
    const cos = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
    const q = embedLocal(message);
    const t = embedLocal(`Dana: I replaced the ${rare} thermocouple on the heater last week, no luck`);
    const turnSimilarity = items.find((i) => i.id === said)!.meta.similarity!;
    expect(turnSimilarity).toBeCloseTo(cos(conversationQueryVector(q, LOCAL_MODEL), t), 3);
    // the map changes the comparison (else this test could not tell whether it was applied)
    expect(Math.abs(turnSimilarity - cos(q, t))).toBeGreaterThan(0.01);
    const memSimilarity = items.find((i) => i.id === mem.body.memory.id)!.meta.similarity!;
    expect(memSimilarity).toBeCloseTo(cos(q, embedLocal(`The ${rare} heater\nReplacing its thermocouple did not help.`)), 3);
  });
});

describe("answer kinds", () => {
  it("marks the turns that hold the kind of answer the message asks for: what was said, what a photo showed, names that are not the speakers'", async () => {
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const rare = word();
    const plain = await turn(me, "Dana", `The ${rare} club meets on weekends`);
    const kayaking = await turn(me, "Dana", `With the ${rare} club I mostly go kayaking`);
    const photo = await turn(me, "Sam", `Look at the ${rare} club last weekend!`, {
      attachments: [{ kind: "image", caption: "a group of people fishing from a boat" }],
    });
    const bySpeaker = await turn(me, "Sam", `The ${rare} club is run by Dana now`);
    const byOther = await turn(me, "Sam", `The ${rare} club is run by Priya now`);
    await flushTermStats();
    const kinds = async (message: string) => {
      const res = await retrieve(me, { message, scopes: ["interactions"] });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return Object.fromEntries((res.body.items as { id: string; meta: { answerKinds: string[] } }[]).map((i) => [i.id, i.meta.answerKinds]));
    };
    const fun = await kinds(`What does Dana do for fun at the ${rare} club?`);
    expect(fun[kayaking]).toEqual(["activity"]);
    expect(fun[photo]).toEqual(["activity"]);
    expect(fun[plain]).toEqual([]);
    const who = await kinds(`Who runs the ${rare} club?`);
    expect(who[byOther]).toEqual(["person"]);
    expect(who[bySpeaker]).toEqual([]);
    // a message that asks for no kind of answer marks none
    const neutral = await kinds(`Is the ${rare} club still meeting?`);
    expect(Object.values(neutral).flat()).toEqual([]);
  });
});

describe("the relevance floor on conversation turns", () => {
  type Item = { id: string; meta: { answerKinds: string[]; coverage: number; similarity: number | null } };
  /**
   * Dana's turn about the club (the one turn that holds words of the messages asked), then Sam's:
   * two openers and `later`, each three or more turns from Dana's (a turn is searched with the two
   * on each side of it), none holding a word of the messages.
   */
  async function clubConversation(later: string[]) {
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const rare = word();
    const joined = await turn(me, "Dana", `I joined the ${rare} club this spring`);
    await turn(me, "Sam", "Nice");
    await turn(me, "Sam", "Busy here, lots of paperwork");
    const ids: string[] = [];
    for (const content of later) ids.push(await turn(me, "Sam", content));
    await flushTermStats();
    const ask = async (message: (club: string) => string) => {
      const res = await retrieve(me, { message: message(`the ${rare} club`), scopes: ["interactions"] });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.items as Item[];
    };
    return { joined, ids, ask };
  }

  it("keeps a turn that holds the asked-for kind of answer though it shares no word with the message; a turn that holds neither is still left out", async () => {
    const { joined, ids, ask } = await clubConversation(["The weather was grey all week", "Anyway", "Mostly kayaking, and the odd swim"]);
    const [unrelated, , answer] = ids;
    const items = await ask((club) => `What does Dana do for fun at ${club}?`);
    expect(items.map((i) => i.id)).toContain(joined);
    const kept = items.find((i) => i.id === answer);
    expect(kept, JSON.stringify(items)).toBeDefined();
    expect(kept!.meta.answerKinds).toEqual(["activity"]);
    // what the floor alone would have left out: no word of the message, not close in meaning
    expect(kept!.meta.coverage).toBe(0);
    expect(kept!.meta.similarity!).toBeLessThan(STRONG_SIMILARITY.localConversation);
    expect(items.map((i) => i.id)).not.toContain(unrelated);
  });

  it("keeps a turn related in meaning, and a time for a question that asks when; a turn that is neither is still left out", async () => {
    const { joined, ids, ask } = await clubConversation([
      "I practise the violin and the cello every evening",
      "Anyway",
      "The weather was grey all week",
      "Yesterday I finally got my membership card",
    ]);
    const [violin, , weather, yesterday] = ids;

    const instruments = await ask((club) => `Which instruments does Dana play at ${club}?`);
    const kept = instruments.map((i) => i.id);
    expect(kept).toContain(joined);
    const related = instruments.find((i) => i.id === violin);
    expect(related, JSON.stringify(instruments)).toBeDefined();
    // no word of the message and no asked-for kind: kept for its meaning, related but not the same
    expect(related!.meta.coverage).toBe(0);
    expect(related!.meta.answerKinds).toEqual([]);
    expect(related!.meta.similarity!).toBeGreaterThanOrEqual(RELATED_TURN_SIMILARITY.local);
    expect(related!.meta.similarity!).toBeLessThan(STRONG_SIMILARITY.localConversation);
    expect(kept).not.toContain(weather);
    expect(kept).not.toContain(yesterday);

    const when = (await ask((club) => `When did Dana join ${club}?`)).map((i) => i.id);
    expect(when).toContain(joined);
    expect(when).toContain(yesterday);
    expect(when).not.toContain(weather);
  });

  it("reads a turn's day with what was said: a message that names the month a turn was said in is answered", async () => {
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const name = `Nate${word().slice(0, 6)}`;
    const said = await turn(me, name, "Been lifting weights, feeling stronger", { occurredAt: "2022-04-10T10:00:00.000Z" });
    await flushTermStats();
    const res = await retrieve(me, { message: `What physical change did ${name} go through in April 2022?`, scopes: ["interactions"] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // the turn alone holds one word of the message; with its day ("10 April 2022"), three
    expect((res.body.items as { id: string }[]).map((i) => i.id)).toEqual([said]);
    const other = await retrieve(me, { message: `What physical change did ${name} go through in June 2023?`, scopes: ["interactions"] });
    expect(other.body.items).toEqual([]);
    // a month and a year are one match: nonsense with a date is still nonsense
    const nonsense = await retrieve(me, { message: "zzzqqq nothing in April 2022", scopes: ["interactions"] });
    expect(nonsense.body.items).toEqual([]);
  });

  it("reads a turn as its speaker's words: a message that names the speaker is answered by what they said, titled with who said it", async () => {
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const name = `Andrew${word().slice(0, 6)}`;
    // recorded as chat integrations record a turn: the words alone, the speaker beside them
    const volunteering = "Volunteering at the shelter was the best part of my week";
    const said = await turn(me, name, volunteering, { content: volunteering, direction: "outbound" });
    await turn(me, "Audrey", "The weather was grey all week", { content: "The weather was grey all week" });
    await flushTermStats();
    // the turn holds one word of the message ("shelter"), its speaker a second: the name, which the
    // message weighs most and the speaker never says
    const res = await retrieve(me, { message: `What kind of activities has ${name} done at the shelter lately?`, scopes: ["interactions"] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [first] = res.body.items as { id: string; title: string }[];
    expect(first?.id, JSON.stringify(res.body.items)).toBe(said);
    // the item names who said it, not whom it was said to
    expect(first?.title).toBe(`Sent by ${name} (chat)`);
    // the speaker's name alone with nonsense is still nonsense: one word of the message
    const nonsense = await retrieve(me, { message: `zzzqqq qqqzzz xxyyzz ${name}`, scopes: ["interactions"] });
    expect(nonsense.body.items).toEqual([]);
    // the turn is searched as its speaker's words: the item reads so, the index holds the name
    // (the ranking's words and the transcript search), and the vector was made from that text
    expect(res.body.items[0].content).toBe(`${name}: ${volunteering}`);
    expect(res.body.items[0].meta.lexicalScore).toBeGreaterThan(0);
    const listed = await as(me.key).get(`/api/v1/interactions?q=${encodeURIComponent(name)}`);
    expect(listed.status).toBe(200);
    expect(listed.body.interactions.map((i: { id: string }) => i.id)).toEqual([said]);
    const db = await getDatabase();
    const [row] = await db.query<{ embedding: string }>("select embedding::text as embedding from interactions where id = $1", [said]);
    const fresh = embedLocal(`${name}: ${volunteering}`);
    expect((JSON.parse(row!.embedding) as number[]).reduce((s, x, i) => s + x * fresh[i]!, 0)).toBeGreaterThan(0.999);
  });

  it("composes a turn's searched text the same in the database and in the app: the speaker once, then the text and the captions", async () => {
    const db = await getDatabase();
    const image = [{ kind: "image" as const, caption: "a red bike by the lake" }];
    const cases: [string, string, Attachment[], string][] = [
      ["Andrew", "I went hiking", [], "Andrew: I went hiking"],
      // recorded with the name already: not given twice, whatever its case
      ["Andrew", "Andrew: I went hiking", [], "Andrew: I went hiking"],
      ["Andrew", "ANDREW: I went hiking", [], "ANDREW: I went hiking"],
      // the name not followed by a colon is words of the turn, not its label
      ["Andrew", "Andrew went hiking", [], "Andrew: Andrew went hiking"],
      ["", "No speaker here", [], "No speaker here"],
      ["Zoë 🚲", "Zoë 🚲: rode along the lake", image, "Zoë 🚲: rode along the lake\n[image: a red bike by the lake]"],
      ["Zoë 🚲", "rode along the lake", image, "Zoë 🚲: rode along the lake\n[image: a red bike by the lake]"],
    ];
    for (const [speaker, content, attachments, expected] of cases) {
      expect(searchableText(speaker, content, attachments)).toBe(expected);
      const [row] = await db.query<{ text: string }>("select mhq.interaction_text($1, $2, $3::jsonb) as text", [speaker, content, JSON.stringify(attachments)]);
      expect(row!.text).toBe(expected);
    }
  });
});

describe("the relevance floor", () => {
  it("answers nonsense with nothing, in retrieve and in the knowledge search, and keeps real matches with their scores", async () => {
    const hq = await createHqUser("curator");
    const curator = { get: (path: string) => api("GET", path, { cookie: hq.cookie }) };
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const topic = word();
    await as(me.key).post("/api/v1/agents/me/memories", { tier: "learning", category: "insight", confidence: 0.8, title: `The ${topic} invoice is overdue`, content: "Nothing was paid yet." });
    await turn(me, "Pat", `Nothing new on the ${topic} invoice`);
    const created = await admin.post("/api/v1/knowledge", { title: `Chasing a ${topic} invoice`, content: "Nothing works better than a friendly reminder.", category: "procedure" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    const nonsense = await retrieve(me, { message: "zzzqqq nothing", scopes: ["memories", "interactions", "knowledge", "documents", "team"] });
    expect(nonsense.status, JSON.stringify(nonsense.body)).toBe(200);
    expect(nonsense.body.items).toEqual([]);
    const kb = await as(me.key).get("/api/v1/knowledge?q=zzzqqq%20nothing");
    expect(kb.status).toBe(200);
    expect(kb.body.entries).toEqual([]);
    const kbCurator = await curator.get("/api/v1/knowledge?q=zzzqqq%20nothing");
    expect(kbCurator.body.entries).toEqual([]);

    const real = await retrieve(me, { message: `Is the ${topic} invoice paid?`, scopes: ["memories", "interactions", "knowledge"] });
    expect(new Set(real.body.items.map((i: { source: string }) => i.source))).toEqual(new Set(["memories", "interactions", "knowledge"]));
    expect(real.body.items.every((i: { score: number }) => typeof i.score === "number" && i.score > 0)).toBe(true);
    const kbReal = await curator.get(`/api/v1/knowledge?q=${topic}%20invoice`);
    expect(kbReal.body.entries).toHaveLength(1);
  });
});

describe("honest scopes", () => {
  it("refuses a scope the role may not read by name, or searches around it and says so", async () => {
    const client = await createClient();
    const specialist = await createAgent({ kind: "internal", role: "specialist" });
    const field = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    const fieldSpecialist = await createAgent({ kind: "field", role: "specialist", clientId: client.id });

    const refused = await retrieve(specialist, { message: "What did the customer say?", scopes: ["interactions"] });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain("interactions");

    const around = await retrieve(specialist, { message: "What did the customer say?", scopes: ["memories", "interactions"] });
    expect(around.status).toBe(200);
    expect(around.body.scopes).toEqual(["memories"]);
    expect(around.body.refusedScopes).toEqual(["interactions"]);

    const team = await retrieve(field, { message: "team rules", scopes: ["team"] });
    expect(team.status).toBe(403);
    expect(team.body.error.message).toContain("team");
    const both = await retrieve(fieldSpecialist, { message: "team rules", scopes: ["team", "interactions"] });
    expect(both.status).toBe(403);
    expect(both.body.error.message).toMatch(/interactions.*team|team.*interactions/);

    const allowed = await retrieve(field, { message: "anything", scopes: ["interactions", "memories"] });
    expect(allowed.status).toBe(200);
    expect(allowed.body.refusedScopes).toBeUndefined();
  });
});

describe("vectors record their model", () => {
  it("tags each vector, compares only vectors of the query's model, and re-embeds through the backfill when the model changes", async () => {
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const topic = word();
    const id = await turn(me, "Pat", `The ${topic} heater was replaced`);
    const db = await getDatabase();
    const [row] = await db.query<{ model: string }>("select embedding_model as model from interactions where id = $1", [id]);
    expect(row!.model).toBe(LOCAL_MODEL);

    // another model: same words, another vector space (here: the local vectors mirrored)
    const other: EmbeddingProvider = {
      name: "openai",
      model: "test-mirror-model",
      embed: async (texts) => texts.map((t) => embedLocal(t).map((x) => -x)),
    };
    setEmbeddingProviderForTests(other);
    const queued = await db.transaction((tx) => countQueued(tx, undefined, other.model));
    expect(queued.find((q) => q.table === "interactions")!.remaining).toBeGreaterThan(0);

    // before re-embedding the old vector is not compared: found by its words, without a similarity
    const before = await retrieve(me, { message: `${topic} heater`, scopes: ["interactions"] });
    expect(ids(before)).toEqual([id]);
    expect(before.body.items[0].meta?.similarity ?? null).toBeNull();

    const report = await backfillEmbeddings({ targets: [{ table: "interactions", textExpression: "content" }] });
    expect(report.remaining).toBe(0);
    const [after] = await db.query<{ model: string }>("select embedding_model as model from interactions where id = $1", [id]);
    expect(after!.model).toBe("test-mirror-model");
    const compared = await retrieve(me, { message: `${topic} heater`, scopes: ["interactions"] });
    expect(compared.body.items[0].meta.similarity).toBeGreaterThan(0.5);

    // and back: the local model's vectors are queued again
    setEmbeddingProviderForTests(undefined);
    const back = await db.transaction((tx) => countQueued(tx, undefined, LOCAL_MODEL));
    expect(back.find((q) => q.table === "interactions")!.remaining).toBeGreaterThan(0);
  });

  it("embeds on its own what an earlier release's local model embedded and rows without a vector, and leaves other models' vectors to the admin", async () => {
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const topic = word();
    const earlier = await turn(me, "Pat", `The ${topic} boiler was serviced`);
    const otherModel = await turn(me, "Pat", `The ${topic} boiler passed its inspection`);
    const cleared = await turn(me, "Pat", `The ${topic} boiler needs a new valve`);
    const db = await getDatabase();
    // rows earlier tests of this file left without a vector
    const waiting = await countLocalReembedQueue();
    const mirrored = (text: string) => `[${embedLocal(text).map((x) => -x).join(",")}]`;
    await db.query("update interactions set embedding = $2::vector, embedding_model = $3 where id = $1", [
      earlier, mirrored(`Pat: The ${topic} boiler was serviced`), EARLIER_LOCAL_MODELS[0],
    ]);
    await db.query("update interactions set embedding_model = 'test-other-model' where id = $1", [otherModel]);
    await db.query("update interactions set embedding = null where id = $1", [cleared]);
    expect(await countLocalReembedQueue()).toBe(waiting + 2);

    // until re-embedded, the row is found by its words only
    const before = await retrieve(me, { message: `${topic} boiler serviced`, scopes: ["interactions"] });
    expect(ids(before)).toContain(earlier);
    expect(before.body.items.find((i: { id: string }) => i.id === earlier).meta?.similarity ?? null).toBeNull();

    expect(await reembedForLocalModel()).toBe(waiting + 2);
    const rows = await db.query<{ id: string; model: string; embedding: string }>(
      "select id, embedding_model as model, embedding::text as embedding from interactions where id = any($1::uuid[])",
      [[earlier, otherModel, cleared]],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const cosine = (id: string, text: string) => {
      const stored = JSON.parse(byId.get(id)!.embedding) as number[];
      const fresh = embedLocal(text);
      return stored.reduce((s, x, i) => s + x * fresh[i]!, 0);
    };
    expect(byId.get(earlier)!.model).toBe(LOCAL_MODEL);
    expect(cosine(earlier, `Pat: The ${topic} boiler was serviced`)).toBeGreaterThan(0.999);
    expect(byId.get(cleared)!.model).toBe(LOCAL_MODEL);
    expect(cosine(cleared, `Pat: The ${topic} boiler needs a new valve`)).toBeGreaterThan(0.999);
    expect(byId.get(otherModel)!.model).toBe("test-other-model");
    expect(await countLocalReembedQueue()).toBe(0);
    const after = await retrieve(me, { message: `${topic} boiler serviced`, scopes: ["interactions"] });
    expect(after.body.items.find((i: { id: string }) => i.id === earlier).meta.similarity).toBeGreaterThan(0.5);
  });

  it.runIf(transport === "postgres")("re-embeds each row once when several runs re-embed at once, without deadlocks", async () => {
    const client = await createClient();
    const a = await createAgent({ kind: "field", role: "orchestrator", clientId: client.id });
    const db = await getDatabase();
    const vector = `[${embedLocal("an earlier vector").map((x) => -x).join(",")}]`;
    await db.query(
      `insert into interactions (client_id, agent_id, channel, direction, speaker, content, occurred_at, embedding, embedding_model)
       select $1, $2, 'chat', 'inbound', 'Pat', 'Pat: boiler note ' || g, now() - g * interval '1 minute', $3::vector, $4
         from generate_series(1, 300) g`,
      [client.id, a.id, vector, EARLIER_LOCAL_MODELS[0]],
    );
    const pool = currentTestDatabase().connect!(8);
    try {
      const runs = await Promise.all(
        Array.from({ length: 3 }, () => backfillEmbeddings({ db: pool, models: EARLIER_LOCAL_MODELS, batchSize: 16 })),
      );
      expect(runs.map((r) => r.error)).toEqual([undefined, undefined, undefined]);
      expect(runs.reduce((n, r) => n + r.embedded, 0)).toBe(300);
    } finally {
      await pool.close();
    }
    const [left] = await db.query<{ n: number }>("select count(*)::int as n from interactions where agent_id = $1 and embedding_model <> $2", [a.id, LOCAL_MODEL]);
    expect(left!.n).toBe(0);
  });
});
