// How fast transcripts go into the embedded database: the LoCoMo dev conversations (or, without
// them, generated small talk) recorded into one agent as an importer would — POST
// /interactions/batch with up to 500 turns per call, every turn of a session with the session's
// time — beside one call per turn for the first 200 turns. Through the services, on the bench's
// on-disk PGlite with the local embedder; turns/s counts everything a write does (embedding,
// postings, conversation labels, the deduplication lookup).
import { existsSync } from "node:fs";
import { createAgent } from "@/lib/agents/service";
import type { AgentCaller, HqCaller } from "@/lib/auth/caller";
import { createInteraction, createInteractionBatch } from "@/lib/memories/interaction-service";
import type { BenchRow } from "./measure";
import { dataDir, loadConversations } from "./locomo";

const ADMIN: HqCaller = { type: "hq", userId: null, name: "bench", email: null, role: "admin" };
const BATCH = 500;
const PER_CALL_TURNS = 200;

interface Item {
  channel: string;
  direction: "inbound" | "outbound";
  speaker: string;
  content: string;
  occurredAt: string;
  conversationId: string;
  externalId: string;
}

const WORDS = "the boiler invoice garden trip daughter school painting guitar camping recipe meeting budget weekend museum puppy marathon concert library pottery beach".split(" ");

/** The dev conversations' turns, a session's time on each; generated turns when the data is absent. */
function transcript(): { items: Item[]; source: string } {
  const dir = dataDir();
  if (existsSync(dir)) {
    const { conversations } = loadConversations(dir);
    if (conversations.length) {
      const items = conversations.flatMap((conv) =>
        conv.sessions.flatMap((s, n) =>
          s.turns.map((t) => ({
            channel: "chat",
            direction: (t.speaker === conv.speakerA ? "outbound" : "inbound") as Item["direction"],
            speaker: t.speaker,
            content: `${t.speaker}: ${t.text}`,
            occurredAt: s.date.toISOString(),
            conversationId: `${conv.name}-session-${n + 1}`,
            externalId: `${conv.name}-${t.diaId}`,
          })),
        ),
      );
      return { items, source: `LoCoMo dev, ${conversations.length} conversations` };
    }
  }
  const items = Array.from({ length: 3000 }, (_, i) => {
    const w = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length];
    return {
      channel: "chat",
      direction: (i % 2 ? "inbound" : "outbound") as Item["direction"],
      speaker: i % 2 ? "Sam" : "Alex",
      content: `${i % 2 ? "Sam" : "Alex"}: about the ${w(1)} and the ${w(2)}, I think the ${w(3)} comes first (${i})`,
      occurredAt: new Date(Date.UTC(2026, 0, 1 + Math.floor(i / 30))).toISOString(),
      conversationId: `generated-${Math.floor(i / 30)}`,
      externalId: `generated-${i}`,
    };
  });
  return { items, source: "generated turns" };
}

async function newAgent(name: string): Promise<AgentCaller> {
  const created = (await createAgent(ADMIN, { name, kind: "internal", role: "orchestrator" })).agent;
  return { type: "agent", agentId: created.id, name: created.name, kind: "internal", role: created.role, clientId: null, kbAccess: "read" };
}

export async function benchImport(): Promise<BenchRow[]> {
  const { items, source } = transcript();
  const batchAgent = await newAgent("Import bench, batches");
  const batchMs: number[] = [];
  for (let i = 0; i < items.length; i += BATCH) {
    const started = performance.now();
    await createInteractionBatch(batchAgent, { interactions: items.slice(i, i + BATCH) });
    batchMs.push(performance.now() - started);
    process.stderr.write(`import: ${Math.min(items.length, i + BATCH)} of ${items.length} turns\n`);
  }
  const total = batchMs.reduce((a, b) => a + b, 0);
  // one turn of the event loop between the phases, as a server has between requests (each arrives
  // as an I/O event): this loop of awaits alone never yields to it, and without that turn the single
  // calls right after the import measured three times as slow (54 ms against 18 per turn)
  await new Promise((resolve) => setImmediate(resolve));
  const callAgent = await newAgent("Import bench, one call per turn");
  const perCall = items.slice(0, PER_CALL_TURNS);
  const callStarted = performance.now();
  for (const item of perCall) await createInteraction(callAgent, item);
  const callMs = performance.now() - callStarted;
  const sorted = [...batchMs].sort((a, b) => a - b);
  const pick = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return [
    {
      benchmark: `import, batches of ${BATCH} turns, embedded`,
      n: batchMs.length,
      p50: pick(50),
      p95: pick(95),
      notes: `${((items.length / total) * 1000).toFixed(0)} turns/s (${items.length} turns, ${source}); ms per batch`,
    },
    {
      benchmark: "import, one call per turn, embedded",
      n: perCall.length,
      p50: callMs / perCall.length,
      p95: NaN,
      notes: `${((perCall.length / callMs) * 1000).toFixed(0)} turns/s; p50 column: ms per turn on average`,
    },
  ];
}
