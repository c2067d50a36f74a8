// `npm run bench -- locomo-http`: LoCoMo conversations (bench/locomo.ts; ../shared/data/locomo-dev or
// --data DIR) through the production server, as an importer and then an agent use it. On each engine
// (`--engines embedded,postgres`; postgres when BENCH_SERVER_DATABASE_URL or DATABASE_URL is set):
// `server.mjs` is started (built first if needed), each conversation goes to a fresh orchestrator
// agent as one `POST /api/v1/interactions/batch` per session (conversationId and externalId, a shared
// image as an attachment with its caption; "Speaker: text", or the words alone with
// LOCOMO_RECORDING=words), and every question with evidence is asked one call after
// another over one keep-alive connection (Node's fetch), first with `scopes: ["interactions"]`, then
// without scopes (the smart trigger decides). Times are measured by the client, so they include
// HTTP, admission, JSON and the network stack; the server's own share (Server-Timing `app`) is in the
// notes. Recall@10 is reported beside the times so a faster path that finds less shows; it is the
// shipped ranker's, fitted on the development conversations, so on them it is not a held-out figure
// (`npm run bench -- quality --ranker-loco FILE` gives those).
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { dataDir, loadConversations, recallAt, turnContent, type Conversation } from "./locomo";
import type { BenchModule, BenchRow } from "./measure";
import { call, ensureBuild, must, newAgent, onEachEngine, percentile, startServer, stop } from "./server";

const FIRST_PORT = Number(process.env.BENCH_LOCOMO_HTTP_PORT || 3151);
const LIMIT = 10;
/** untimed calls first, so the server's caches and the connection are warm */
const WARMUP = 10;

interface Asked {
  times: number[];
  appTimes: number[];
  recall: number[];
  failed: number;
}

const ms = (v: number) => v.toFixed(1);

async function importConversation(base: string, conv: Conversation, tag: string) {
  const { key } = await newAgent(base, `LoCoMo ${conv.name} ${tag}`);
  const diaOf = new Map<string, string>();
  let turns = 0;
  const started = performance.now();
  for (const [n, session] of conv.sessions.entries()) {
    const interactions = session.turns.map((turn) => ({
      channel: "chat",
      direction: turn.speaker === conv.speakerA ? "outbound" : "inbound",
      ...turnContent(turn),
      occurredAt: session.date.toISOString(),
      conversationId: `${conv.name}-session-${n + 1}`,
      externalId: turn.diaId,
    }));
    const body = await must(base, key, "POST", "/api/v1/interactions/batch", { interactions });
    (body.interactions as { id: string }[]).forEach((it, i) => diaOf.set(it.id, session.turns[i]!.diaId));
    turns += interactions.length;
  }
  return { key, diaOf, turns, ms: performance.now() - started };
}

async function ask(base: string, key: string, conv: Conversation, diaOf: Map<string, string>, scoped: boolean, into: Asked) {
  const body = (message: string) => ({ message, limit: LIMIT, ...(scoped ? { scopes: ["interactions"] } : {}) });
  for (const q of conv.questions.slice(0, WARMUP)) await call(base, key, "POST", "/api/v1/retrieve", body(q.question));
  for (const q of conv.questions) {
    const t0 = performance.now();
    const r = await call(base, key, "POST", "/api/v1/retrieve", body(q.question));
    const elapsed = performance.now() - t0;
    if (r.status !== 200) {
      into.failed++;
      continue;
    }
    into.times.push(elapsed);
    if (Number.isFinite(r.appMs)) into.appTimes.push(r.appMs);
    const ranked = (r.body.items as { id: string; source: string }[]).map((it) => (it.source === "interactions" ? (diaOf.get(it.id) ?? "") : ""));
    into.recall.push(recallAt(ranked, q.evidence, LIMIT));
  }
}

function askedRow(label: string, a: Asked): BenchRow {
  const times = [...a.times].sort((x, y) => x - y);
  const app = [...a.appTimes].sort((x, y) => x - y);
  const recall = a.recall.length ? a.recall.reduce((s, v) => s + v, 0) / a.recall.length : NaN;
  return {
    benchmark: label,
    n: times.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    notes: `max ${ms(times.at(-1) ?? NaN)} ms; server's own p50 ${ms(percentile(app, 50))} / p95 ${ms(percentile(app, 95))} ms; recall@10 ${recall.toFixed(3)}; ${a.failed} not 200`,
  };
}

async function runEngine(engine: string, distDir: string, port: number, env: Record<string, string>, conversations: Conversation[]): Promise<BenchRow[]> {
  let child: ChildProcess | undefined;
  const tag = Math.random().toString(36).slice(2, 7);
  try {
    child = await startServer(distDir, port, env);
    const base = `http://127.0.0.1:${port}`;
    const imported = [];
    let turns = 0;
    let importMs = 0;
    for (const conv of conversations) {
      const one = await importConversation(base, conv, tag);
      imported.push({ conv, ...one });
      turns += one.turns;
      importMs += one.ms;
      process.stderr.write(`locomo-http ${engine}: ${conv.name} imported, ${one.turns} turns in ${(one.ms / 1000).toFixed(1)} s\n`);
    }
    // the word statistics are rebuilt a moment after writes; ask once they are
    await new Promise((r) => setTimeout(r, 3000));
    const scoped: Asked = { times: [], appTimes: [], recall: [], failed: 0 };
    const unscoped: Asked = { times: [], appTimes: [], recall: [], failed: 0 };
    for (const { conv, key, diaOf } of imported) await ask(base, key, conv, diaOf, true, scoped);
    for (const { conv, key, diaOf } of imported) await ask(base, key, conv, diaOf, false, unscoped);
    return [
      {
        benchmark: `locomo-http ${engine}: import, one batch per session`,
        n: turns,
        p50: importMs / turns,
        p95: NaN,
        notes: `${((turns / importMs) * 1000).toFixed(0)} turns/s over ${conversations.length} conversations; p50 column: ms per turn on average`,
      },
      askedRow(`locomo-http ${engine}: retrieve, scopes ["interactions"], ms`, scoped),
      askedRow(`locomo-http ${engine}: retrieve without scopes, ms`, unscoped),
    ];
  } catch (err) {
    return [{ benchmark: `locomo-http ${engine}`, n: 0, p50: NaN, p95: NaN, notes: `failed: ${err instanceof Error ? err.message : String(err)}` }];
  } finally {
    await stop(child);
  }
}

export const benchLocomoHttp: BenchModule = async () => {
  const dir = dataDir();
  if (!existsSync(dir)) {
    console.log(`locomo-http: no LoCoMo data at ${dir} (pass --data DIR); nothing measured`);
    return [];
  }
  const conversations = loadConversations(dir).conversations.slice(0, Number(process.env.QUALITY_CONVERSATIONS) || Infinity);
  if (!conversations.length) {
    console.log(`locomo-http: no conversation files in ${dir}; nothing measured`);
    return [];
  }
  const distDir = ensureBuild();
  const at = process.argv.indexOf("--engines");
  const engines = at >= 0 ? process.argv[at + 1]! : "embedded,postgres";
  return onEachEngine("locomo-http", engines, FIRST_PORT, (engine, port, env) => runEngine(engine, distDir, port, env, conversations));
};
