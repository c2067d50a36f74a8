// The ranking of conversation turns: a linear model over cheap signals of each candidate turn, its
// weights learned from labelled conversations (bench/fit-ranker.ts writes them) and shipped as a
// versioned file (conversation-ranker.json). The search (public.search_interactions) finds the
// candidates and measures the signals that need the index; the rest are read off the turn here.
import coefficients from "./conversation-ranker.json";
import { askedKinds, foldWord, heldKinds, type AnswerKind } from "./answer-kinds";
import { hasTimeExpression, isWhenQuestion, namedPeriods, periodMatch, type NamedPeriod } from "./time-signals";

/** The signals, each 0–1, in the order of the coefficients file. */
export const TURN_FEATURES = [
  /** BM25F of the turn with its neighbouring turns, relative to the message's best */
  "lexical",
  /** share of the message's rare-word weight the turn's document matches */
  "coverage",
  /** cosine of the turn's own vector to the message's (0 without one) */
  "similarity",
  /** cosine of the turn with its neighbours (its own vector counted twice) */
  "contextSimilarity",
  /** share of the message's rare-word weight the turn's conversation holds */
  "conversationCoverage",
  /** the turn's speaker is named in the message */
  "speakerNamed",
  /** how much the turn says: distinct words / 20, at most 1 */
  "length",
  /** the turn is only a question */
  "onlyQuestion",
  /** the message asks when, and the turn places something in time ("last week", "in May") */
  "timeForWhen",
  /** the turn happened in a month or year the message names */
  "periodMatch",
  /** the message asks for a kind of answer (activities, a place, a title, a number, a person) and the turn holds one */
  "answerKind",
] as const;
export type TurnFeature = (typeof TURN_FEATURES)[number];

/**
 * The question adapter: a linear map of a message's vector, learned with the weights, applied before
 * the message is compared with conversation turns' vectors (the nearest turns the search takes as
 * candidates, and the similarity signals). An averaged-word-vector question lies closest to turns
 * that repeat its words, not to the turns that answer it ("What are Dave's hobbies?" against "I went
 * to a concert last night"); the map is fitted so that each question's vector, mapped, lies closest
 * to its evidence turns among all the turns of its conversation (softmax over the turns, an L2
 * penalty towards leaving the vector as it is). Only for vectors of `model`: another provider's
 * vectors are compared as they are.
 */
export interface QuestionAdapter {
  model: string;
  dims: number;
  /** dims × dims, row-major: the mapped vector's j-th value is Σ_i vector[i] · matrix[i][j] */
  matrix: number[][];
}

export interface RankerCoefficients {
  version: number;
  features: readonly string[];
  weights: Record<string, number>;
  /** fitted with the weights: the similarity signals the weights were fitted on are the adapted ones */
  adapter?: QuestionAdapter;
}

export const RANKER: RankerCoefficients = coefficients;

let inUse: RankerCoefficients = RANKER;
/**
 * Benches only: rank with other weights and their question adapter until called again with null
 * (the quality bench ranks each conversation with weights fitted without it, so no figure is scored
 * on what it was fitted on).
 */
export function setRankerForBench(ranker: RankerCoefficients | null): void {
  inUse = ranker ?? RANKER;
}

/**
 * The message's vector as the conversation search compares it with turns' vectors: mapped by the
 * ranker's question adapter and normalised when the vector is of the adapter's model, else as it is
 * (`adapter` null: as it is).
 */
export function conversationQueryVector(vector: readonly number[], model: string, adapter: QuestionAdapter | null = inUse.adapter ?? null): number[] {
  if (!adapter || adapter.model !== model || adapter.dims !== vector.length) return [...vector];
  const out = new Array<number>(adapter.dims).fill(0);
  adapter.matrix.forEach((row, i) => {
    const x = vector[i]!;
    if (x) row.forEach((m, j) => (out[j]! += x * m));
  });
  const norm = Math.hypot(...out);
  return norm > 0 ? out.map((x) => x / norm) : [...vector];
}

/** What the ranker reads of a candidate turn. */
export interface TurnSignals {
  content: string;
  speaker: string;
  occurredAt: Date | string;
  lexicalScore: number;
  coverage: number;
  similarity: number | null;
  contextSimilarity: number | null;
  conversationCoverage: number;
  /** the turn's photos and files: what their captions show counts as said */
  attachments?: readonly { caption?: string }[] | null;
}

/** What the ranker reads of the message, once per search. */
export interface MessageSignals {
  /** the message's words, lower case, space-separated and padded (" what did dana try ") */
  words: string;
  asksWhen: boolean;
  periods: NamedPeriod[];
  asks: AnswerKind[];
  /**
   * Words (lower case) a turn holds without answering anything: the message's own and the names of
   * the candidates' speakers (a name in a turn is a person, place or title only when it is neither)
   */
  known: Set<string>;
}

const wordsOf = (text: string) => foldWord(text).match(/[\p{L}\p{N}]+/gu) ?? [];

/** `speakers`: the speakers of the turns the message is ranked against. */
export function messageSignals(message: string, speakers: readonly string[] = []): MessageSignals {
  const words = wordsOf(message);
  return {
    words: ` ${words.join(" ")} `,
    asksWhen: isWhenQuestion(message),
    periods: namedPeriods(message),
    asks: askedKinds(message),
    known: new Set([...words, ...speakers.flatMap(wordsOf)]),
  };
}

/** The kinds of answer the message asks for that the turn holds (what it said and its photos' captions). */
export function answerKindsOf(turn: TurnSignals, message: MessageSignals): AnswerKind[] {
  if (!message.asks.length) return [];
  const captions = (turn.attachments ?? []).map((a) => a.caption ?? "").join(" ");
  const held = heldKinds(turn.content, captions, message.known);
  return message.asks.filter((kind) => held.has(kind));
}

const clamp01 = (x: number) => Math.max(0, Math.min(1, x));

/**
 * The features of one candidate turn for a message, in TURN_FEATURES order (`kinds`: the turn's
 * answerKindsOf, when the caller has them already).
 */
export function turnFeatures(turn: TurnSignals, message: MessageSignals, kinds: readonly AnswerKind[] = answerKindsOf(turn, message)): number[] {
  const speaker = wordsOf(turn.speaker).join(" ");
  const words = new Set(wordsOf(turn.content));
  return [
    clamp01(turn.lexicalScore),
    clamp01(turn.coverage),
    clamp01(turn.similarity ?? 0),
    clamp01(turn.contextSimilarity ?? 0),
    clamp01(turn.conversationCoverage),
    speaker && message.words.includes(` ${speaker} `) ? 1 : 0,
    Math.min(1, words.size / 20),
    /\?\s*$/.test(turn.content) ? 1 : 0,
    message.asksWhen && hasTimeExpression(turn.content) ? 1 : 0,
    periodMatch(message.periods, turn.occurredAt),
    kinds.length ? 1 : 0,
  ];
}

/**
 * A turn's score (0–1): the weighted sum of its features divided by the sum of the positive weights
 * (what a turn scoring 1 on every helpful signal and 0 on every harmful one would get), at least 0.
 */
export function scoreFeatures(features: readonly number[], ranker: RankerCoefficients = inUse): number {
  let sum = 0;
  let most = 0;
  TURN_FEATURES.forEach((name, i) => {
    const w = ranker.weights[name] ?? 0;
    sum += w * features[i]!;
    if (w > 0) most += w;
  });
  return most > 0 ? clamp01(sum / most) : 0;
}

/**
 * The candidates in the ranker's order, each with its score (ties: the search's order) and the kinds
 * of answer it holds that the message asks for.
 */
export function rankTurns<T extends TurnSignals>(hits: readonly T[], message: string, ranker: RankerCoefficients = inUse): (T & { score: number; answerKinds: AnswerKind[] })[] {
  const m = messageSignals(message, hits.map((h) => h.speaker));
  return hits
    .map((h, i) => {
      const answerKinds = answerKindsOf(h, m);
      return { h, i, score: scoreFeatures(turnFeatures(h, m, answerKinds), ranker), answerKinds };
    })
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ h, score, answerKinds }) => ({ ...h, score, answerKinds }));
}
