import { readFileSync } from "node:fs";
import path from "node:path";
import { classify } from "@/lib/retrieval/smart-trigger/classify";
import type { TriggerLevel, TriggerVariant } from "@/lib/retrieval/smart-trigger/types";
import { compileVocabulary, type VocabularyTerm } from "@/lib/retrieval/smart-trigger/vocabulary";

/** A labelled message set for the smart trigger (tests/fixtures/trigger-*-set.json). */
export interface TriggerSet {
  description: string;
  vocabularies: Record<TriggerVariant, { selfName: string; terms: VocabularyTerm[] }>;
  messages: { message: string; agentKind: TriggerVariant; expected: TriggerLevel }[];
}

export function loadTriggerSet(name: "dev" | "holdout"): TriggerSet {
  const file = path.join(__dirname, "..", "fixtures", `trigger-${name}-set.json`);
  return JSON.parse(readFileSync(file, "utf8")) as TriggerSet;
}

export interface TriggerScore {
  n: number;
  correct: number;
  accuracy: number;
  /** the costly error: the message needed context and the trigger said `none` */
  neededButNone: TriggerSet["messages"];
  /** the cheap one: context fetched for a message that needed none */
  noneButFetched: TriggerSet["messages"];
  /** every mismatch, with the level the trigger gave */
  wrong: (TriggerSet["messages"][number] & { got: TriggerLevel })[];
}

/** Classifies every message of the set with the set's vocabulary for its agent kind. */
export function scoreTriggerSet(set: TriggerSet, filter?: (m: TriggerSet["messages"][number]) => boolean): TriggerScore {
  const compiled = {
    internal: compileVocabulary(set.vocabularies.internal.terms, set.vocabularies.internal.selfName),
    field: compileVocabulary(set.vocabularies.field.terms, set.vocabularies.field.selfName),
  };
  const messages = filter ? set.messages.filter(filter) : set.messages;
  const wrong: TriggerScore["wrong"] = [];
  for (const m of messages) {
    const got = classify(m.message, {
      variant: m.agentKind,
      compiled: compiled[m.agentKind],
      selfName: set.vocabularies[m.agentKind].selfName,
    }).level;
    if (got !== m.expected) wrong.push({ ...m, got });
  }
  return {
    n: messages.length,
    correct: messages.length - wrong.length,
    accuracy: messages.length ? (messages.length - wrong.length) / messages.length : 1,
    neededButNone: wrong.filter((w) => w.got === "none"),
    noneButFetched: wrong.filter((w) => w.expected === "none"),
    wrong,
  };
}
