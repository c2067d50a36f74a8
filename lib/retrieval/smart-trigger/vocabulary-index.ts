import { normalizeMessage } from "./text";
import type { CompiledVocabulary } from "./vocabulary";

/**
 * A lookup from a term's key words (its first word; for a person, each of their names) to its
 * compiled pattern, so that classifying a message tests
 * only the few terms whose first word occurs in it instead of every name an agent knows (hundreds
 * of contacts). The patterns themselves still decide: the result is exactly what testing every
 * term would give, only cheaper (tests/unit/retrieval-vocabulary-index.test.ts checks that).
 */
export interface VocabularyIndex {
  compiled: CompiledVocabulary;
  byKey: Map<string, number[]>;
  /** terms that do not start with a letter or digit: always tested */
  always: number[];
}

const WORD = /[\p{L}\p{N}]+/gu;
const LEADING_WORD = /^[\p{L}\p{N}]+/u;

export function indexVocabulary(compiled: CompiledVocabulary): VocabularyIndex {
  const byKey = new Map<string, number[]>();
  const always: number[] = [];
  compiled.forEach((entry, i) => {
    if (!LEADING_WORD.test(normalizeMessage(entry.term.term))) always.push(i);
    else for (const key of entry.keys) byKey.set(key, [...(byKey.get(key) ?? []), i]);
  });
  return { compiled, byKey, always };
}

/** The compiled terms that can possibly match `message`, in their original order. */
export function candidateTerms(index: VocabularyIndex, message: string): CompiledVocabulary {
  const picked = new Set(index.always);
  for (const word of normalizeMessage(message).match(WORD) ?? []) {
    for (const i of index.byKey.get(word) ?? []) picked.add(i);
    // "the Beckers": a name's plural finds the name
    if (word.endsWith("s")) for (const i of index.byKey.get(word.slice(0, -1)) ?? []) picked.add(i);
  }
  if (picked.size === 0) return [];
  return [...picked].sort((a, b) => a - b).map((i) => index.compiled[i]!);
}
