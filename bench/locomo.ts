// LoCoMo conversations (Maharana et al., ACL 2024) as the retrieval benches read them, from
// ../shared/data/locomo-dev next to the repository or --data DIR. Benchmark data under a
// non-commercial licence: read where it lies, never copied into the repository.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * Each question's `category`, checked against the questions themselves: 1 multi-hop ("What books has
 * Tim read?", several evidence turns over several sessions), 2 temporal ("When did…"), 3 open-domain
 * (inference: "Would Melanie enjoy…?"), 4 single-hop, 5 adversarial (names the other speaker).
 */
export const CATEGORIES: Record<number, string> = { 1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial" };

export interface Turn {
  speaker: string;
  diaId: string;
  text: string;
  /** the image the turn shared, described (LoCoMo's blip_caption) */
  caption?: string;
  /** where that image was (LoCoMo's img_url), when it is an http(s) URL */
  imageUrl?: string;
}
export interface Question {
  question: string;
  /** the gold answer (the adversarial answer for category 5) */
  answer: string;
  category: number;
  /** dia_ids of the turns that hold the answer, normalised (see normaliseEvidence) */
  evidence: string[];
}
export interface Conversation {
  name: string;
  speakerA: string;
  sessions: { date: Date; turns: Turn[] }[];
  questions: Question[];
}
/** What loading had to mend or leave out, for the bench's report. */
export interface DataQuirks {
  /** evidence ids written another way and read as a turn's id ("D30:05" → D30:5, "D:11:26" → D11:26) */
  normalised: number;
  /** entries holding several ids ("D8:6; D9:17", "D9:1 D4:4 D4:6"), split into each */
  split: number;
  /** ids that name no turn of the conversation ("D", "D10:19" where session 10 is shorter): dropped */
  dropped: number;
  /** questions left without evidence (none given, or none that names a turn): not asked */
  skipped: number;
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

/**
 * A question's evidence as turn ids: entries that hold several ids are split, ids written with a
 * stray colon or a leading zero are read as the turn they name, and ids that name no turn are dropped.
 */
export function normaliseEvidence(evidence: unknown[], turnIds: ReadonlySet<string>, quirks: DataQuirks): string[] {
  const out: string[] = [];
  for (const entry of evidence) {
    const parts = String(entry).split(/[;,\s]+/).filter(Boolean);
    if (parts.length > 1) quirks.split++;
    for (const part of parts) {
      const m = /^D:?(\d+):0*(\d+)$/.exec(part);
      const id = m ? `D${m[1]}:${m[2]}` : part;
      if (!turnIds.has(id)) {
        quirks.dropped++;
        continue;
      }
      if (id !== part) quirks.normalised++;
      if (!out.includes(id)) out.push(id);
    }
  }
  return out;
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
  img_url?: string[] | string;
}

export function loadConversations(dir: string): { conversations: Conversation[]; quirks: DataQuirks } {
  const quirks: DataQuirks = { normalised: 0, split: 0, dropped: 0, skipped: 0 };
  const conversations: Conversation[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    const raw = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Record<string, unknown>;
    const conv = (raw.conversation as Record<string, unknown> | undefined) ?? raw;
    const numbers = Object.keys(conv)
      .map((k) => /^session_(\d+)$/.exec(k)?.[1])
      .filter((n): n is string => Boolean(n))
      .map(Number)
      .sort((a, b) => a - b);
    const sessions: Conversation["sessions"] = numbers.map((n) => ({
      date: parseSessionDate(String(conv[`session_${n}_date_time`] ?? "")),
      turns: (conv[`session_${n}`] as RawTurn[]).map((t) => {
        const url = Array.isArray(t.img_url) ? t.img_url[0] : t.img_url;
        return {
          speaker: t.speaker,
          diaId: t.dia_id,
          text: t.text,
          ...(t.blip_caption ? { caption: t.blip_caption } : {}),
          ...(url && /^https?:\/\//i.test(url) && url.length <= 2000 ? { imageUrl: url } : {}),
        };
      }),
    }));
    const turnIds = new Set(sessions.flatMap((s) => s.turns.map((t) => t.diaId)));
    const questions: Question[] = [];
    for (const q of (raw.qa as { question: string; answer?: unknown; adversarial_answer?: unknown; category: number; evidence?: unknown[] }[]) ?? []) {
      const evidence = normaliseEvidence(Array.isArray(q.evidence) ? q.evidence : [], turnIds, quirks);
      if (!evidence.length) {
        quirks.skipped++;
        continue;
      }
      questions.push({ question: String(q.question), answer: String(q.answer ?? q.adversarial_answer ?? ""), category: Number(q.category), evidence });
    }
    conversations.push({ name: file.replace(/\.json$/, ""), speakerA: String(conv.speaker_a ?? ""), sessions, questions });
  }
  return { conversations, quirks };
}

/**
 * How the turns' text is recorded (LOCOMO_RECORDING): "named" (the default), "Speaker: text", as
 * an integration that writes transcripts records it; "words", the words alone, the name only in
 * `speaker`, as a chat integration records each message. The speaker field is set either way.
 */
export const RECORDING: "named" | "words" = process.env.LOCOMO_RECORDING === "words" ? "words" : "named";
if (process.env.LOCOMO_RECORDING && !["named", "words"].includes(process.env.LOCOMO_RECORDING)) {
  throw new Error(`LOCOMO_RECORDING is "named" or "words", not "${process.env.LOCOMO_RECORDING}"`);
}

/** A turn as an integration records it (RECORDING), the shared image as an attachment with its caption. */
export function turnContent(turn: Turn) {
  return {
    speaker: turn.speaker,
    content: RECORDING === "words" ? turn.text : `${turn.speaker}: ${turn.text}`,
    ...(turn.caption || turn.imageUrl
      ? { attachments: [{ kind: "image" as const, ...(turn.caption ? { caption: turn.caption } : {}), ...(turn.imageUrl ? { url: turn.imageUrl } : {}) }] }
      : {}),
  };
}

/** Turn-level recall@k: the share of a question's evidence turns among the first k. */
export function recallAt(ranked: readonly string[], evidence: readonly string[], k: number): number {
  const gold = new Set(evidence);
  return ranked.slice(0, k).filter((id) => gold.has(id)).length / gold.size;
}
