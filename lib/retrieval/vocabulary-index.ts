import { normalizeMessage, type CompiledVocabulary } from "./trigger";

/**
 * A lookup from a term's first word to its compiled pattern, so that classifying a message tests
 * only the few terms whose first word occurs in it instead of every name an agent knows (hundreds
 * of contacts). The patterns themselves still decide: the result is exactly what testing every
 * term would give, only cheaper (tests/unit/retrieval-vocabulary-index.test.ts checks that).
 */
export interface VocabularyIndex {
  compiled: CompiledVocabulary;
  byFirstWord: Map<string, number[]>;
  /** terms that do not start with a letter or digit: always tested */
  always: number[];
}

const WORD = /[\p{L}\p{N}]+/gu;
const LEADING_WORD = /^[\p{L}\p{N}]+/u;

export function indexVocabulary(compiled: CompiledVocabulary): VocabularyIndex {
  const byFirstWord = new Map<string, number[]>();
  const always: number[] = [];
  compiled.forEach((entry, i) => {
    const first = LEADING_WORD.exec(normalizeMessage(entry.term.term))?.[0];
    if (!first) always.push(i);
    else byFirstWord.set(first, [...(byFirstWord.get(first) ?? []), i]);
  });
  return { compiled, byFirstWord, always };
}

/** The compiled terms that can possibly match `message`, in their original order. */
export function candidateTerms(index: VocabularyIndex, message: string): CompiledVocabulary {
  const picked = new Set(index.always);
  for (const word of normalizeMessage(message).match(WORD) ?? []) {
    for (const i of index.byFirstWord.get(word) ?? []) picked.add(i);
  }
  if (picked.size === 0) return [];
  return [...picked].sort((a, b) => a - b).map((i) => index.compiled[i]!);
}
