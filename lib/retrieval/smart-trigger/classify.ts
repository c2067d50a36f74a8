/**
 * The smart trigger: a zero-token classifier that decides, before any search,
 * whether a message needs retrieved context and from where.
 *
 *   internal agents: none | local | shared   (shared = the team's shared knowledge)
 *   field agents:    none | local | hq       (hq = the read-only HQ knowledge base)
 *
 * Levels include the ones below them: `shared` and `hq` search the agent's own memory too.
 * Names (agents, clients, their trigger terms, contacts, missions, and the people in the agent's own
 * memory) come from the caller's data (vocabulary.ts), never from the patterns (patterns.ts), and a
 * field agent's vocabulary never holds internal team names.
 *
 * Internal agents follow "search local files first; if local search is insufficient or the topic
 * involves other agents or shared projects, query the shared knowledge": decision language and past
 * references ("should we…", "let's…", "last time we…", "didn't we…") are `local` unless the message
 * names another agent, a client, a shared project or mission, or the team; the retrieval falls back
 * to the shared memory when the agent's own scopes find nothing.
 */
import { CASUAL, HQ_PATTERNS, LOCAL_PATTERNS, NOT_NAMES, OTHERS_TEAM, PERSON_CUE, PLURAL, TEAM_NAMED, TITLED } from "./patterns";
import { normalizeMessage, requestPart, straightenQuotes } from "./text";
import type { Classification, Trigger, TriggerKind, TriggerVariant } from "./types";
import { compileVocabulary, type CompiledTerm, type CompiledVocabulary, type VocabularyTerm } from "./vocabulary";

/** Small talk (a greeting, thanks, "ok") never needs retrieved context. */
export function isSmallTalk(message: string): boolean {
  const text = normalizeMessage(message);
  return !text || CASUAL.test(text);
}

export interface ClassifyOptions {
  variant: TriggerVariant;
  vocabulary?: VocabularyTerm[];
  /** the calling agent's own name: mentioning yourself is not a reference to someone else */
  selfName?: string;
}

export function classify(message: string, opts: ClassifyOptions & { compiled?: CompiledVocabulary }): Classification {
  const text = normalizeMessage(message);
  if (!text) return { level: "none", triggers: [] };
  // pleasantries, perhaps with a name ("Thanks Sam!"), never trigger; a pleasantry before a word
  // that is a trigger of its own ("Hi, urgent!", "ok error") is not small talk
  const casual = CASUAL.test(text);
  const request = requestPart(text);
  const original = requestPart(straightenQuotes(message));

  const triggers: Trigger[] = [];
  const seen = new Set<string>();
  const push = (kind: TriggerKind, match: string) => {
    const key = `${kind}:${match}`;
    if (!seen.has(key)) {
      seen.add(key);
      triggers.push({ kind, match });
    }
  };

  const hqHits: Trigger[] = [];
  if (opts.variant === "field") {
    for (const p of HQ_PATTERNS) {
      const m = p.re.exec(request);
      if (m) {
        push(p.kind, m[0].trim());
        hqHits.push({ kind: p.kind, match: m[0].trim() });
      }
    }
  }
  for (const p of LOCAL_PATTERNS) {
    // for field agents, "how do I…" is an HQ procedural question, already counted above
    if (opts.variant === "field" && p.kind === "how_to" && hqHits.some((h) => h.kind === "procedural")) continue;
    const m = p.re.exec(request);
    if (m) push(p.kind, m[0].replace(/^[.!?,;:\s]+/, "").trim());
  }
  const vocabulary = opts.compiled ?? compileVocabulary(opts.vocabulary ?? [], opts.selfName);
  let sharedName = false;
  const named = (term: VocabularyTerm) => {
    push("name", term.term);
    if (term.type !== "contact" && term.type !== "person" && term.type !== "mention") sharedName = true;
  };
  // whole terms first; a single name then counts only when no whole term already accounts for it
  // ("Tom Becker" does not also make every other Tom a match)
  const covered = new Set<string>();
  const partials: CompiledTerm[] = [];
  for (const entry of vocabulary) {
    if (entry.re.test(entry.cased ? original : text)) {
      named(entry.term);
      for (const w of entry.keys) covered.add(w);
      for (const w of normalizeMessage(entry.term.term).match(/[\p{L}\p{N}]+/gu) ?? []) covered.add(w);
    } else if (entry.head?.test(request)) {
      named(entry.term);
    } else if (entry.partial) partials.push(entry);
  }
  for (const entry of partials) {
    const m = entry.partial!.exec(original);
    const word = m?.[0].replace(/^[^\p{L}\p{N}]+/u, "").replace(/(?:'s|s'|s)$/, "").toLowerCase();
    if (word && !covered.has(word) && !covered.has(`${word}s`)) named(entry.term);
  }
  const titled = TITLED.exec(original);
  if (titled) push("name", titled[0]);
  if (opts.variant === "internal") {
    const cue = PERSON_CUE.exec(original);
    const name = cue?.[1] ?? cue?.[2];
    if (name && !NOT_NAMES.has(name) && (!opts.selfName || name.toLowerCase() !== normalizeMessage(opts.selfName))) push("name", name);
  }

  if (triggers.length === 0 || (casual && triggers.every((t) => t.kind === "name"))) return { level: "none", triggers: [] };
  if (opts.variant === "field") return { level: hqHits.length ? "hq" : "local", triggers };
  // internal: the team's shared knowledge when the message names other agents, clients (or their
  // terms) or shared projects and missions, or the team itself ("what did the team decide", "which
  // of us"), or asks for the team's policies and plans ("our policy on refunds", "our priorities");
  // otherwise the agent's own memory first — decisions and past references in the first person
  // plural ("should we…", "let's…", "last time we…", "didn't we…") included. A correction alone
  // stays local, and so does someone else's team ("what did Dana's team decide?").
  const substantive = triggers.some((t) => t.kind !== "correction" && t.kind !== "name");
  const team = substantive && TEAM_NAMED.test(request.replace(OTHERS_TEAM, " "));
  const teamPolicy = PLURAL.test(request) && triggers.some((t) => t.kind === "how_to" || t.kind === "planning");
  return { level: sharedName || team || teamPolicy ? "shared" : "local", triggers };
}
