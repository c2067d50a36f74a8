import type { Queryable } from "@/lib/db/types";
import { getEmbeddingProvider, toVectorLiteral } from "@/lib/embeddings";

// The memory manager's part of the demo: a few of Sunrise Plumbing's customers with
// canonical facts, one inbound text from Santos, and the suggestions extracted from it waiting in
// the Review queue — a clean one, one that would replace a fact, one under the 0.7 floor and one
// outside the client's list of business-relevant keys.

const FACT_KEYS = ["preferred_time", "preferred_channel", "service_address", "water_heater", "budget"];

const CONTACTS = [
  {
    name: "Dana Whitfield",
    phone: "+18635550142",
    email: "dana.whitfield@example.com",
    stage: "engaged",
    sentiment: "neutral",
    summary: "Homeowner on Elm St; 2014 gas water heater keeps leaking.",
    facts: [["preferred_channel", "phone calls", 0.8]],
  },
  {
    name: "Marcus Bell",
    phone: "+18635550187",
    email: null,
    stage: "customer",
    sentiment: "positive",
    summary: "Repeat customer; drain cleaning twice a year.",
    facts: [
      ["preferred_time", "weekday mornings", 0.9],
      ["service_address", "221 Lake Hollingsworth Dr, Lakeland FL", 0.85],
    ],
  },
  { name: "Priya Natarajan", phone: null, email: "priya.n@example.com", stage: "new", sentiment: null, summary: "", facts: [] },
] as const;

const INBOUND =
  "Hi, this is Dana on Elm St. Our 50-gallon gas water heater from 2014 is leaking again. " +
  "Mornings before 10 work best, and please text me rather than call. We have a dog, so knock first.";

const SUGGESTIONS = [
  ["water_heater", "50-gallon gas, installed 2014, leaking", 0.86],
  ["preferred_time", "mornings before 10", 0.82],
  ["preferred_channel", "sms (texts, not calls)", 0.93],
  ["budget", "around $1,500", 0.55],
  ["pets", "has a dog; knock first", 0.78],
] as const;

export async function seedContactsDemo(tx: Queryable, p: { clientId: string }): Promise<void> {
  const agents = await tx.query<{ id: string; name: string }>("select id, name from agents where name in ('Sybil', 'Santos')");
  const sybil = agents.find((a) => a.name === "Sybil");
  const santos = agents.find((a) => a.name === "Santos");
  if (!sybil || !santos) return;
  await tx.query("update clients set fact_keys = $2 where id = $1", [p.clientId, FACT_KEYS]);

  const ids: string[] = [];
  for (const c of CONTACTS) {
    const [row] = await tx.query<{ id: string }>(
      `insert into contacts (client_id, name, phone, email, stage, sentiment, summary) values ($1, $2, $3, $4, $5, $6, $7) returning id`,
      [p.clientId, c.name, c.phone, c.email, c.stage, c.sentiment, c.summary],
    );
    ids.push(row!.id);
    for (const [key, value, confidence] of c.facts) {
      await tx.query(
        `insert into facts (contact_id, key, value, confidence, written_by_type, written_by_id, written_by_name)
         values ($1, $2, $3, $4, 'agent', $5, 'Sybil')`,
        [row!.id, key, value, confidence, sybil.id],
      );
    }
  }

  // the demo arrives fully embedded with the local embedder (no network); with a remote provider
  // the message waits for the console's indexing button like any write made while it is down
  const provider = getEmbeddingProvider();
  const embedding = provider.name === "local" ? toVectorLiteral((await provider.embed([INBOUND]))[0]!) : null;
  const [interaction] = await tx.query<{ id: string }>(
    `insert into interactions (client_id, agent_id, contact_id, channel, direction, speaker, content, occurred_at, embedding)
     values ($1, $2, $3, 'sms', 'inbound', 'Dana Whitfield', $4, now() - interval '2 hours', $5::vector) returning id`,
    [p.clientId, santos.id, ids[0], INBOUND, embedding],
  );
  for (const [key, value, confidence] of SUGGESTIONS) {
    await tx.query(
      `insert into memory_suggestions (contact_id, key, value, confidence, interaction_id, proposed_by_type, proposed_by_id, proposed_by_name)
       values ($1, $2, $3, $4, $5, 'agent', $6, 'Santos')`,
      [ids[0], key, value, confidence, interaction!.id, santos.id],
    );
  }
}
