// Retrieval quality on long real conversations (LoCoMo): each dev conversation is recorded turn by
// turn into a fresh agent through the interactions service (the API's path: content "Speaker: text",
// the session's date as occurredAt), then every question that has evidence is asked through the
// retrieve service with scopes ["interactions"] and limit 10. Turn-level recall@k = share of a
// question's evidence turns among the top k; MRR = 1 / rank of the first evidence turn. A plain
// BM25 (k1 1.2, b 0.75, no stemming, no context) over the same turns is the baseline.
//
// The data is read from ../shared/data/locomo-dev next to the repository, or --data DIR; it is
// benchmark data under a non-commercial licence and is never copied into the repository.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import { createAgent } from "@/lib/agents/service";
import type { AgentCaller, HqCaller } from "@/lib/auth/caller";
import { setDatabaseForTests } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";
import { wrapPglite } from "@/lib/db/pglite";
import { createInteraction } from "@/lib/memories/interaction-service";
import { retrieve } from "@/lib/retrieval/service";
import { flushTermStats } from "@/lib/retrieval/term-stats";
import type { BenchRow } from "./measure";

const ADMIN: HqCaller = { type: "hq", userId: null, name: "bench", email: null, role: "admin" };
const LIMIT = 10;

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
}
interface Conversation {
  name: string;
  speakerA: string;
  sessions: { date: Date; turns: Turn[] }[];
  questions: { question: string; evidence: string[] }[];
}

/** --data DIR, else ../shared/data/locomo-dev next to the repository (or next to a folder above it). */
export function dataDir(argv = process.argv): string {
  const i = argv.indexOf("--data");
  if (i >= 0 && argv[i + 1]) return path.resolve(argv[i + 1]!);
  const first = path.resolve(process.cwd(), "../shared/data/locomo-dev");
  for (let dir = path.resolve(process.cwd(), ".."); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "shared/data/locomo-dev");
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return first;
  }
}

const MONTHS = "january february march april may june july august september october november december".split(" ");

/** "1:56 pm on 8 May, 2023" → a UTC date. */
export function parseSessionDate(s: string): Date {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(s);
  if (!m) return new Date(s);
  let hour = Number(m[1]) % 12;
  if (m[3]!.toLowerCase() === "pm") hour += 12;
  const month = MONTHS.indexOf(m[5]!.toLowerCase());
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2])));
}

function load(dir: string): Conversation[] {
  const out: Conversation[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    const raw = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Record<string, unknown>;
    const conv = (raw.conversation as Record<string, unknown> | undefined) ?? raw;
    const sessions: Conversation["sessions"] = [];
    for (let n = 1; ; n++) {
      const turns = conv[`session_${n}`] as Turn[] | undefined;
      if (!turns) {
        if (n > 60) break;
        continue;
      }
      sessions.push({ date: parseSessionDate(String(conv[`session_${n}_date_time`] ?? "")), turns });
    }
    const qa = (raw.qa as { question: string; evidence?: string[] }[]) ?? [];
    out.push({
      name: file.replace(/\.json$/, ""),
      speakerA: String(conv.speaker_a ?? ""),
      sessions,
      questions: qa
        .filter((q) => Array.isArray(q.evidence) && q.evidence.length)
        .map((q) => ({ question: String(q.question), evidence: q.evidence!.flatMap((e) => String(e).split(/[;,]\s*/)).map((e) => e.trim()) })),
    });
  }
  return out;
}

// ── the baseline: plain BM25 over the same turns ────────────────────────────────────────────────

const STOP = new Set(
  "a an and are as at be but by did do does for from had has have he her his how i in is it its me my of on or our she so that the their them they this to was we were what when where which who why will with you your".split(
    " ",
  ),
);
const tokens = (s: string) => (s.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((t) => !STOP.has(t));

function bm25Index(docs: { id: string; text: string }[], k1 = 1.2, b = 0.75) {
  const tfs = docs.map((d) => {
    const m = new Map<string, number>();
    const ts = tokens(d.text);
    for (const t of ts) m.set(t, (m.get(t) ?? 0) + 1);
    return { id: d.id, m, len: ts.length };
  });
  const df = new Map<string, number>();
  for (const d of tfs) for (const t of d.m.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const avg = tfs.reduce((s, d) => s + d.len, 0) / Math.max(1, tfs.length);
  const n = tfs.length;
  return (query: string, k: number): string[] => {
    const q = [...new Set(tokens(query))];
    const scored: { id: string; s: number }[] = [];
    for (const d of tfs) {
      let s = 0;
      for (const t of q) {
        const f = d.m.get(t);
        if (!f) continue;
        const idf = Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
        s += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.len) / avg));
      }
      if (s > 0) scored.push({ id: d.id, s });
    }
    return scored.sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : 1)).slice(0, k).map((x) => x.id);
  };
}

// ── metrics ─────────────────────────────────────────────────────────────────────────────────────

interface Score {
  r5: number;
  r10: number;
  mrr: number;
  n: number;
}
const empty = (): Score => ({ r5: 0, r10: 0, mrr: 0, n: 0 });

function add(s: Score, ranked: string[], evidence: string[]) {
  const gold = new Set(evidence);
  const hits = (k: number) => ranked.slice(0, k).filter((id) => gold.has(id)).length / gold.size;
  s.r5 += hits(5);
  s.r10 += hits(10);
  const first = ranked.findIndex((id) => gold.has(id));
  s.mrr += first >= 0 ? 1 / (first + 1) : 0;
  s.n++;
}
const fmt = (s: Score, k: keyof Omit<Score, "n">) => (s.n ? (s[k] / s.n).toFixed(3) : "-");

function percentile(sorted: number[], p: number) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]! : NaN;
}

// ── the benchmark ───────────────────────────────────────────────────────────────────────────────

export async function benchQuality(): Promise<BenchRow[]> {
  const dir = dataDir();
  if (!existsSync(dir)) {
    console.log(`quality: no LoCoMo data at ${dir} (pass --data DIR); nothing measured`);
    return [];
  }
  const conversations = load(dir);
  if (!conversations.length) {
    console.log(`quality: no conversation files in ${dir}; nothing measured`);
    return [];
  }
  const pg = await PGlite.create("memory://", { extensions: { vector } });
  const db = wrapPglite(pg);
  await migrate(db);
  setDatabaseForTests(db);
  const lines: string[][] = [];
  const totalOurs = empty();
  const totalBm25 = empty();
  const times: number[] = [];
  let turnsTotal = 0;
  let unanswered = 0;
  try {
    for (const conv of conversations) {
      const created = (await createAgent(ADMIN, { name: `Quality ${conv.name}`, kind: "internal", role: "orchestrator" })).agent;
      const caller: AgentCaller = {
        type: "agent",
        agentId: created.id,
        name: created.name,
        kind: "internal",
        role: created.role,
        clientId: null,
        kbAccess: "read",
      };
      const diaOf = new Map<string, string>();
      const docs: { id: string; text: string }[] = [];
      for (const session of conv.sessions) {
        for (const [i, turn] of session.turns.entries()) {
          const content = `${turn.speaker}: ${turn.text}`;
          const { interaction } = await createInteraction(caller, {
            channel: "chat",
            direction: turn.speaker === conv.speakerA ? "outbound" : "inbound",
            speaker: turn.speaker,
            content,
            // turns of a session a few seconds apart, in order
            occurredAt: new Date(session.date.getTime() + i * 20_000).toISOString(),
          });
          diaOf.set(interaction.id, turn.dia_id);
          docs.push({ id: turn.dia_id, text: content });
        }
      }
      turnsTotal += docs.length;
      // what the server's batch job does a moment after the writes
      await flushTermStats();
      const bm25 = bm25Index(docs);
      const ours = empty();
      const base = empty();
      for (const q of conv.questions) {
        const start = performance.now();
        const r = await retrieve(caller, { message: q.question, scopes: ["interactions"], limit: LIMIT });
        times.push(performance.now() - start);
        if (!r.items.length) unanswered++;
        const ranked = r.items.map((it) => diaOf.get(it.id) ?? "");
        add(ours, ranked, q.evidence);
        add(totalOurs, ranked, q.evidence);
        const b = bm25(q.question, LIMIT);
        add(base, b, q.evidence);
        add(totalBm25, b, q.evidence);
      }
      lines.push([conv.name, String(docs.length), String(ours.n), fmt(ours, "r5"), fmt(ours, "r10"), fmt(ours, "mrr"), fmt(base, "r5"), fmt(base, "r10"), fmt(base, "mrr")]);
      process.stderr.write(`quality: ${conv.name} done (${docs.length} turns, ${ours.n} questions)\n`);
    }
    lines.push(["overall", String(turnsTotal), String(totalOurs.n), fmt(totalOurs, "r5"), fmt(totalOurs, "r10"), fmt(totalOurs, "mrr"), fmt(totalBm25, "r5"), fmt(totalBm25, "r10"), fmt(totalBm25, "mrr")]);
    const header = ["conversation", "turns", "questions", "ours r@5", "ours r@10", "ours MRR", "bm25 r@5", "bm25 r@10", "bm25 MRR"];
    const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
    const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join("  ");
    console.log([line(header), widths.map((w) => "-".repeat(w)).join("  "), ...lines.map(line)].join("\n"));
    const delta = totalOurs.n ? ((totalOurs.r10 - totalBm25.r10) / totalOurs.n) * 100 : 0;
    console.log(`recall@10: ours − BM25 = ${delta >= 0 ? "+" : ""}${delta.toFixed(1)} points; ${unanswered} questions answered with nothing (relevance floor)\n`);
  } finally {
    setDatabaseForTests(undefined);
    await db.close();
  }
  times.sort((a, b) => a - b);
  return [
    {
      benchmark: "retrieve in-process, interactions, LoCoMo",
      n: times.length,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      notes: `${conversations.length} conversations, ${turnsTotal} turns, limit ${LIMIT}`,
    },
  ];
}
