import { describe, expect, it } from "vitest";
import { as } from "../helpers/api";
import { createAgent, rareWord, type TestAgent } from "../helpers/fixtures";
import { currentTestDatabase } from "../helpers/setup-env";
import type { AgentCaller } from "@/lib/auth/caller";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";

// The smart trigger hears the people in an agent's own memory — the speakers of its recorded
// conversations and the names its own memories mention — as they are recorded, on every instance;
// and an internal agent's local retrieval that finds nothing of its own falls back to the team's
// shared memory in the same call.

/** A name no other test uses: capitalised letters only (names hold no digits). */
const personName = () => {
  const letters = Array.from({ length: 6 }, () => "bcdfghjklmnprstvz"[Math.floor(Math.random() * 17)]).join("");
  return `Ka${letters}`;
};

const trigger = (agent: TestAgent, message: string) => as(agent.key).post("/api/v1/trigger", { message });
const retrieve = (agent: TestAgent, body: Record<string, unknown>) => as(agent.key).post("/api/v1/retrieve", body);

async function say(agent: TestAgent, speaker: string, content: string) {
  const res = await as(agent.key).post("/api/v1/interactions", { channel: "chat", direction: "inbound", speaker, content });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.interaction as { id: string };
}

async function memory(agent: TestAgent, body: Record<string, unknown>) {
  const res = await as(agent.key).post("/api/v1/agents/me/memories", { tier: "learning", category: "insight", confidence: 0.8, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.memory as { id: string };
}

const callerOf = (agent: TestAgent): AgentCaller => ({
  type: "agent",
  agentId: agent.id,
  name: agent.name,
  kind: "internal",
  role: "orchestrator",
  clientId: null,
  kbAccess: "read",
});

const QUESTIONS = (name: string) => [
  `When is ${name} moving?`,
  `What does ${name}'s daughter play?`,
  `Where does ${name} live now`,
  `Is ${name} coming tomorrow?`,
  `how is ${name} doing`,
  `${name}'s birthday?`,
];

describe("the people in an agent's own memory", () => {
  it("the speakers of its conversations: a question about one of them needs its memory", async () => {
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const dana = personName();
    const topic = rareWord();
    expect((await trigger(me, `When is ${dana} moving?`)).body).toMatchObject({ level: "none", triggers: [] });

    const turn = await say(me, `${dana} Whitfield`, `We are moving to ${topic} in June, the boxes are packed.`);
    for (const question of QUESTIONS(dana)) {
      const r = await trigger(me, question);
      expect(r.body.level, question).not.toBe("none");
      expect(r.body.triggers, question).toContainEqual({ kind: "name", match: `${dana} Whitfield` });
      // a person of the agent's own memory is not shared context
      expect(r.body.level, question).toBe("local");
    }
    // the same name in lower case is not a name ("will", "grace"); a pleasantry stays small talk
    expect((await trigger(me, `Thanks ${dana}!`)).body.level).toBe("none");

    const res = await retrieve(me, { message: `When is ${dana} moving to ${topic}?` });
    expect(res.status).toBe(200);
    expect(res.body.level).toBe("local");
    expect(res.body.items.map((i: { id: string }) => i.id)).toContain(turn.id);
  });

  it("role labels are not people, and the agent's own name is not a reference to someone else", async () => {
    const me = await createAgent({ name: personName(), kind: "internal", role: "orchestrator" });
    await say(me, "user", "hello there");
    await say(me, "Assistant", "hi, how can I help?");
    await say(me, me.name, "I answered the question.");
    const db = await getDatabase();
    const rows = await db.query<{ name: string }>("select name from agent_people where agent_id = $1", [me.id]);
    expect(rows.map((r) => r.name)).toEqual([me.name]);
    expect((await trigger(me, "What does the user want?")).body.level).toBe("none");
  });

  it("the names its own memories mention, and not those of a team memory or another agent's", async () => {
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const other = await createAgent({ kind: "internal", role: "orchestrator" });
    const marco = personName();
    const lena = personName();
    const teamOnly = personName();
    await memory(me, { title: `${marco}'s daughter plays the cello`, content: `Met ${lena} at the school concert; she teaches there.` });
    await memory(me, { scope: "team", title: `Team note: ${teamOnly} is the new landlord` });
    const db = await getDatabase();
    const names = await db.query<{ name: string; source: string }>(
      "select name, source from agent_people where agent_id = $1 order by lower(name)",
      [me.id],
    );
    expect(names).toEqual(
      expect.arrayContaining([
        { name: marco, source: "memory" },
        { name: lena, source: "memory" },
      ]),
    );
    expect(names.map((n) => n.name)).not.toContain(teamOnly);
    // everyday capitalised words are not names
    expect(names.map((n) => n.name)).not.toEqual(expect.arrayContaining(["Met", "Team", "The"]));

    const r = await trigger(me, `What does ${marco}'s daughter play?`);
    expect(r.body.level).toBe("local");
    expect(r.body.triggers).toContainEqual({ kind: "name", match: marco });
    expect((await trigger(me, `Does ${lena} still teach?`)).body.level).toBe("local");
    // another agent does not know them
    expect((await trigger(other, `What does ${marco}'s daughter play?`)).body).toMatchObject({ level: "none", triggers: [] });

    // a rewrite that drops a name (an edit, a redaction) drops it from the vocabulary, unless another memory still names them
    const pim = personName();
    const rewritten = await memory(me, { title: `Lunch with ${pim} on the terrace` });
    await memory(me, { title: `Coffee with ${lena} downtown` });
    expect((await trigger(me, `Is ${pim} vegetarian?`)).body.level).toBe("local");
    const patched = await as(me.key).patch(`/api/v1/memories/${rewritten.id}`, { title: "Lunch on the terrace" });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect((await trigger(me, `Is ${pim} vegetarian?`)).body.level).toBe("none");
    const first = await db.query<{ id: string }>("select id from memories where agent_id = $1 and title like $2", [me.id, `${marco}%`]);
    expect((await as(me.key).patch(`/api/v1/memories/${first[0]!.id}`, { content: "Met someone at the school concert." })).status).toBe(200);
    expect((await trigger(me, `Does ${lena} still teach?`)).body.level).toBe("local");
  });

  it("the names its conversations mention inside a sentence, heard only so, until no turn mentions them", async () => {
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const other = await createAgent({ kind: "internal", role: "orchestrator" });
    const max = personName();
    const town = personName();
    const opener = personName();
    const question = `How is ${max} doing?`;
    expect((await trigger(me, question)).body.level).toBe("none");

    const adopted = await say(me, "Nate", `${opener} Joanna, guess what, we adopted a puppy called ${max} last week!`);
    await say(me, "Joanna", `We drove him home from ${town} on Sunday.`);
    const db = await getDatabase();
    const names = await db.query<{ name: string; source: string }>("select name, source from agent_people where agent_id = $1", [me.id]);
    expect(names).toEqual(expect.arrayContaining([{ name: max, source: "mention" }, { name: town, source: "mention" }]));
    // a sentence's first word is not read as a name in a turn: chat opens with "Hey", "Wow", names alike
    expect(names.map((n) => n.name)).not.toContain(opener);

    const r = await trigger(me, question);
    expect(r.body).toMatchObject({ level: "local", triggers: [{ kind: "name", match: max }] });
    expect((await trigger(me, `Did you ever go back to ${town}?`)).body.level).toBe("local");
    // heard as it was said: inside a sentence, capitalised
    expect((await trigger(me, `${max} out the budget for the ads`)).body.level).toBe("none");
    expect((await trigger(me, `how is ${max.toLowerCase()} doing`)).body.level).toBe("none");
    // another agent never heard of them
    expect((await trigger(other, question)).body.level).toBe("none");

    // a memory that names them makes them a person of its memory: heard wherever the name is written
    expect((await trigger(me, `${town} was lovely`)).body.level).toBe("none");
    const trip = await memory(me, { title: `Weekend trip to ${town}` });
    expect(await db.query("select source from agent_people where agent_id = $1 and name = $2", [me.id, town])).toEqual([{ source: "memory" }]);
    expect((await trigger(me, `${town} was lovely`)).body.level).toBe("local");
    expect((await as(me.key).patch(`/api/v1/memories/${trip.id}`, { title: "Weekend trip" })).status).toBe(200);

    // the turn goes (as an erasure deletes a contact's turns): the name leaves with it
    await db.query("delete from interactions where id = $1", [adopted.id]);
    expect((await trigger(me, question)).body.level).toBe("none");
    expect((await trigger(me, `Did you ever go back to ${town}?`)).body.level).toBe("local");
  });

  it("a name recorded on another connection (another instance) reaches a cached vocabulary at the next call, and an erased one leaves it", async () => {
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const name = personName();
    const question = `When is ${name} moving?`;
    // the vocabulary is compiled and cached now
    expect((await trigger(me, question)).body.level).toBe("none");

    // another app instance records a turn through its own pool
    const testDb = currentTestDatabase();
    const other = testDb.connect ? testDb.connect(2) : await getDatabase(); // the embedded database has one connection
    const [row] = await withClaims(other, claimsFor(callerOf(me)), (tx) =>
      tx.query<{ id: string }>(
        `insert into interactions (agent_id, channel, direction, speaker, content) values ($1, 'chat', 'inbound', $2, 'see you at the new place') returning id`,
        [me.id, name],
      ),
    );
    expect((await trigger(me, question)).body).toMatchObject({ level: "local", triggers: [{ kind: "name", match: name }] });

    // the turn is erased (as opt-out erasure deletes a contact's turns): the name leaves the vocabulary
    await (await getDatabase()).query("delete from interactions where id = $1", [row!.id]);
    expect((await trigger(me, question)).body.level).toBe("none");
    if (other !== (await getDatabase())) await other.close?.();
  });

  it("are readable by the agent itself and HQ only, and written by no caller", async () => {
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const other = await createAgent({ kind: "internal", role: "manager" });
    const name = personName();
    await say(me, name, "hello");
    const db = await getDatabase();
    const own = await withClaims(db, claimsFor(callerOf(me)), (tx) => tx.query<{ name: string }>("select name from agent_people"));
    expect(own.map((r) => r.name)).toEqual([name]);
    const theirs = await withClaims(db, claimsFor({ ...callerOf(other), role: "manager" }), (tx) =>
      tx.query("select name from agent_people where agent_id = $1", [me.id]),
    );
    expect(theirs).toEqual([]);
    await expect(
      withClaims(db, claimsFor(callerOf(me)), (tx) => tx.query("insert into agent_people (agent_id, name, source) values ($1, 'Forged', 'speaker')", [me.id])),
    ).rejects.toThrow(/permission denied/);
    await expect(
      withClaims(db, claimsFor(callerOf(me)), (tx) => tx.query("delete from agent_people where agent_id = $1", [me.id])),
    ).rejects.toThrow(/permission denied/);
    // through the API: another agent's trigger never hears them
    expect((await trigger(other, `When is ${name} moving?`)).body.level).toBe("none");
  });
});

describe("a local retrieval falls back to the shared memory", () => {
  it("when the agent's own scopes find nothing, in the same call, and says so", async () => {
    const topic = rareWord();
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const teammate = await createAgent({ kind: "internal", role: "orchestrator" });
    const team = await memory(teammate, { scope: "team", title: `We switched the ${topic} supplier in May`, content: "The old one shipped late twice." });

    const res = await retrieve(me, { message: `Last time we changed the ${topic} supplier, what went wrong?` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ level: "local", fallback: "shared" });
    expect(res.body.scopes).toEqual(["memories", "documents", "interactions", "team"]);
    expect(res.body.items.map((i: { id: string }) => i.id)).toEqual([team.id]);
    expect(res.body.context).toContain("team's shared memory");

    const [log] = await (await getDatabase()).query<{ fallback: string | null; scopes: string[]; level: string }>(
      "select fallback, scopes, level from retrieval_log where agent_id = $1 order by occurred_at desc limit 1",
      [me.id],
    );
    expect(log).toEqual({ fallback: "shared", scopes: ["memories", "documents", "interactions", "team"], level: "local" });

    // the agent's own memory answers: no fallback
    const own = await memory(me, { title: `The ${topic} supplier changed because of late shipments` });
    const local = await retrieve(me, { message: `Last time we changed the ${topic} supplier, what went wrong?` });
    expect(local.body.level).toBe("local");
    expect(local.body.fallback).toBeUndefined();
    expect(local.body.items.map((i: { id: string }) => i.id)).toContain(own.id);
    expect(local.body.items.map((i: { id: string }) => i.id)).not.toContain(team.id);

    // explicit scopes never fall back; a field agent has no shared memory to fall back to
    const explicit = await retrieve(me, { message: `${rareWord()} supplier`, scopes: ["memories"] });
    expect(explicit.body.fallback).toBeUndefined();
  });

  it("decision language and past references with nobody else named are local; naming the team or another agent is shared", async () => {
    const me = await createAgent({ kind: "internal", role: "orchestrator" });
    const orion = await createAgent({ kind: "internal", role: "specialist" });
    for (const message of ["Should we drop the free tier?", "Let's go with the blue variant", "Last time we tried this it broke", "Didn't we decide to stop cold emailing?"]) {
      expect((await trigger(me, message)).body.level, message).toBe("local");
    }
    for (const message of ["What did the team decide about weekend coverage?", `Should we ask ${orion.name} to take over?`]) {
      expect((await trigger(me, message)).body.level, message).toBe("shared");
    }
  });
});
