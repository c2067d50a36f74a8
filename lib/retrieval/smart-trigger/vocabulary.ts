/**
 * The smart trigger's vocabulary: the names a message may mention (agents, clients, their trigger
 * terms, contacts, missions, and the people in the agent's own memory), which come from the
 * caller's data, compiled once per caller into patterns.
 */
import { normalizeMessage } from "./text";

export interface VocabularyTerm {
  term: string;
  /**
   * what the term names; `agent`, `client`, `term` and `mission` are shared context for internal
   * agents. `person`: someone in the agent's own memory (a speaker of its conversations, a name its
   * memories mention), matched only when written capitalised ("Will", not "will"). `mention`: a name
   * the agent's conversations mention inside a sentence ("we adopted a puppy, Max"), matched only so:
   * capitalised, inside a sentence of the message ("How is Max doing?", not "Max out the budget").
   */
  type: "agent" | "client" | "contact" | "mission" | "term" | "person" | "mention";
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** `s` in any case, as a pattern: "ana" → "[aA][nN][aA]" */
const caseless = (s: string) =>
  [...s].map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : escapeRe(c))).join("");

export interface CompiledTerm {
  /** the whole term, any case, on the normalised message */
  re: RegExp;
  /** a contact's first or last name alone, capitalised ("Priya", "the Beckers"), on the original text */
  partial?: RegExp;
  /** `re` is tested on the original text (a person's name, capitalised) rather than the normalised one */
  cased?: boolean;
  /** a mission named by its last word with "the" ("the redesign" for "pricing page redesign"), on the normalised text */
  head?: RegExp;
  /** the normalised words of which at least one must occur for the term to match */
  keys: string[];
  term: VocabularyTerm;
}

/** Where a sentence goes on: a letter, digit or comma (a quote or bracket between), then spaces. */
const INSIDE_SENTENCE = "(?<=[\\p{L}\\p{N},;][\"'“‘(]?\\s+[\"'“‘(]?)";

/** Compiles a vocabulary once per caller; `classify` is then a handful of regex tests. */
export function compileVocabulary(terms: VocabularyTerm[], selfName?: string): CompiledTerm[] {
  const seen = new Set<string>();
  const entries: CompiledTerm[] = [];
  for (const t of terms) {
    const norm = normalizeMessage(t.term);
    if (norm.length < 2 || seen.has(norm) || (selfName && norm === normalizeMessage(selfName))) continue;
    seen.add(norm);
    const escaped = escapeRe(norm).replace(/ /g, "\\s+");
    const words = norm.match(/[\p{L}\p{N}]+/gu) ?? [];
    const mention = t.type === "mention";
    const person = t.type === "person" || mention;
    // a person's name is matched as a name: each word capitalised, the rest of it in any case
    const pattern = person ? norm.split(" ").map((w) => (w ? escapeRe(w[0]!.toUpperCase()) + caseless(w.slice(1)) : "")).join("\\s+") : escaped;
    // a mention inside a sentence: after a word (and a comma or a quote), not where a sentence starts
    const before = mention ? INSIDE_SENTENCE : "(?:^|[^\\p{L}\\p{N}])";
    const entry: CompiledTerm = {
      re: new RegExp(`${before}${pattern}(?:'s|s')?(?=$|[^\\p{L}\\p{N}])`, "u"),
      keys: words.slice(0, 1),
      term: t,
      ...(person ? { cased: true } : {}),
    };
    // a person is often named by one of their names: "Did Tom pay?", "the Beckers' garage"
    const parts = (t.type === "contact" || person) && words.length > 1 ? words.filter((w) => w.length >= 3 && /^\p{L}+$/u.test(w)) : [];
    if (parts.length) {
      const cap = parts.map((w) => escapeRe(w[0]!.toUpperCase() + w.slice(1)));
      entry.partial = new RegExp(`(?:^|[^\\p{L}\\p{N}])(?:${cap.join("|")})(?:s|'s|s')?(?=$|[^\\p{L}\\p{N}])`, "u");
      entry.keys = [...new Set([...entry.keys, ...parts])];
    }
    // a project in flight is often named by its head noun: "how's the redesign going?"
    const last = words[words.length - 1];
    if (t.type === "mission" && words.length > 1 && last && last.length >= 4 && /^\p{L}+$/u.test(last)) {
      entry.head = new RegExp(`\\bthe ${escapeRe(last)}(?:'s)?(?=$|[^\\p{L}\\p{N}])`, "u");
      entry.keys = [...new Set([...entry.keys, last])];
    }
    entries.push(entry);
  }
  return entries;
}

export type CompiledVocabulary = CompiledTerm[];
