/**
 * The smart trigger: a zero-token classifier that decides, before any search,
 * whether a message needs retrieved context and from where.
 *
 *   internal agents: none | local | shared   (shared = the team's shared knowledge)
 *   field agents:    none | local | hq       (hq = the read-only HQ knowledge base)
 *
 * Levels include the ones below them: `shared` and `hq` search the agent's own memory too.
 * Names (agents, clients, their trigger terms, contacts, missions) come from the caller's data, never
 * from this file, and a field agent's vocabulary never holds internal team names.
 */

export type TriggerVariant = "internal" | "field";
export type TriggerLevel = "none" | "local" | "shared" | "hq";

export type TriggerKind =
  | "decision"
  | "past_reference"
  | "planning"
  | "correction"
  | "how_to"
  | "name"
  | "procedural"
  | "error"
  | "scope"
  | "escalation"
  | "tool";

export interface Trigger {
  kind: TriggerKind;
  match: string;
}

export interface VocabularyTerm {
  term: string;
  /** what the term names; `agent`, `client` and `mission` are shared context for internal agents */
  type: "agent" | "client" | "contact" | "mission" | "term";
}

export interface Classification {
  level: TriggerLevel;
  triggers: Trigger[];
}

interface Pattern {
  kind: TriggerKind;
  re: RegExp;
}

// Patterns run on normalised text: lower case, straight apostrophes, "n't"/"'s"/"'re"… kept, and
// "do not"/"did not" folded to "don't"/"didn't", so "Didn’t we…", "did not we" and "DIDNT WE" agree.
const LOCAL_PATTERNS: Pattern[] = [
  { kind: "decision", re: /\b(?:should (?:we|i)|shall we|i think we should|we should|let's|lets (?:go|do|try|use|move|switch|pick)|we decided|(?:we|i) need to decide|decision (?:on|about|to)|go with|what if we|are we going to|do we want to)\b/ },
  { kind: "past_reference", re: /\b(?:remember (?:when|that|the|how|what)|do you remember|last (?:time|week|month|quarter) (?:we|you|i|they)|didn't we|did we (?:ever|already|not)|haven't we|we (?:already|previously) |previously|(?:as|like) (?:we|you|i) (?:said|discussed|agreed|decided)|what did (?:we|you|i) (?:decide|say|do|agree|try)|we talked about|back when|the other day)\b/ },
  { kind: "planning", re: /\b(?:next steps?|implementation (?:order|plan)|road ?map|plan (?:for|to|out)|strategy|strategi[sz]e|prioriti[sz](?:e|ation)|priorities|milestones?|timeline|phase (?:\d|one|two|three)|game plan|this (?:week|quarter)'s (?:plan|goals?)|what's (?:next|the plan))\b/ },
  { kind: "correction", re: /(?:^|[.!?]\s+)(?:actually|nope|wrong|correction|not quite|but)\b|(?:^|[.!?]\s+)no,|\bactually,|\b(?:that's not (?:right|correct|true|what)|that isn't (?:right|correct|true)|that's (?:wrong|incorrect|outdated)|you're (?:wrong|mistaken)|i meant|to clarify|let me correct|you got (?:it|that) wrong|not what i (?:said|meant|asked))\b/ },
  { kind: "how_to", re: /\b(?:how (?:do|should|can|would) (?:i|we)|what's the (?:process|procedure|best way) (?:for|to)|how to|what are the steps)\b/ },
];

const HQ_PATTERNS: Pattern[] = [
  { kind: "procedural", re: /\b(?:how (?:do|should|can) i|what's the (?:process|procedure) for|is there a (?:template|checklist|procedure|guide|sop) (?:for|to)|standard (?:procedure|process)|sop for|best practice|what are the steps)\b/ },
  { kind: "error", re: /\b(?:errors?|failed|failing|fails|failure|broken|(?:not|isn't|aren't|wasn't|weren't) working|doesn't work|won't work|stopped working|something went wrong|can't figure out|crash(?:ed|es)?|bug|timed? ?out|exception)\b/ },
  { kind: "scope", re: /\b(?:can i (?:do|handle|promise|offer|say|send|give)|is this something i (?:handle|do|should)|should i be doing|outside (?:my|of my) scope|out of scope|am i allowed to|is it ok(?:ay)? (?:if|to) i|allowed to|within my scope|my responsibility)\b/ },
  { kind: "escalation", re: /\b(?:should i escalate|escalat(?:e|ion|ing)|is this urgent|urgent|do i need to tell|(?:contact|call|notify|alert) hq|loop in (?:hq|someone|a human)|hand (?:it )?off to|talk to a human|who do i (?:tell|ask))\b/ },
  { kind: "tool", re: /\b(?:how does (?:the )?[\w-]+(?: [\w-]+)? work|never used (?:this|that|it) before|what skill (?:do i use|should i use|is) for|which (?:skill|tool) (?:do|should) i|first time using)\b/ },
];

// Messages that are only pleasantries or simple tasks never trigger, even when a name appears
// ("Thanks Sam!").
const CASUAL = /^(?:(?:hi|hey|hello|yo|good (?:morning|afternoon|evening)|thanks?(?: you)?|thx|ty|cheers|ok(?:ay)?|cool|great|nice|awesome|perfect|got it|sounds good|will do|on it|done|bye|see you|np|no problem|lol|👍|🙏)[\s,!.?:;-]*)+(?:[\w'-]+)?[\s!.?]*$/u;

export interface ClassifyOptions {
  variant: TriggerVariant;
  vocabulary?: VocabularyTerm[];
  /** the calling agent's own name: mentioning yourself is not a reference to someone else */
  selfName?: string;
}

export function normalizeMessage(message: string): string {
  return message
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\b(do|does|did|is|are|was|were|have|has|had|could|would|should|can|won|wo)\s+not\b/g, (_, v: string) =>
      v === "can" ? "can't" : v === "won" || v === "wo" ? "won't" : `${v}n't`,
    )
    .replace(/\bcannot\b/g, "can't")
    .replace(/\b(didnt|dont|doesnt|isnt|arent|wasnt|havent|hasnt|cant|wont|shouldnt|couldnt|wouldnt)\b/g, (w) =>
      w === "cant" ? "can't" : w === "wont" ? "won't" : `${w.slice(0, -1)}'t`,
    )
    .replace(/\b(whats|thats|lets|youre|im|ive)\b/g, (w) => CONTRACTIONS[w] ?? w)
    .replace(/\bwhat is\b/g, "what's")
    .replace(/\bthat is\b/g, "that's")
    .replace(/\blet us\b/g, "let's")
    .replace(/\byou are\b/g, "you're")
    .replace(/\s+/g, " ")
    .trim();
}

const CONTRACTIONS: Record<string, string> = {
  whats: "what's",
  thats: "that's",
  lets: "let's",
  youre: "you're",
  im: "i'm",
  ive: "i've",
};

/** Compiles a vocabulary once per caller; `classify` is then a handful of regex tests. */
export function compileVocabulary(terms: VocabularyTerm[], selfName?: string) {
  const seen = new Set<string>();
  const entries: { re: RegExp; term: VocabularyTerm }[] = [];
  for (const t of terms) {
    const norm = normalizeMessage(t.term);
    if (norm.length < 2 || seen.has(norm) || (selfName && norm === normalizeMessage(selfName))) continue;
    seen.add(norm);
    const escaped = norm.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+");
    entries.push({ re: new RegExp(`(?:^|[^\\p{L}\\p{N}])${escaped}(?:'s)?(?=$|[^\\p{L}\\p{N}])`, "u"), term: t });
  }
  return entries;
}

export type CompiledVocabulary = ReturnType<typeof compileVocabulary>;

export function classify(message: string, opts: ClassifyOptions & { compiled?: CompiledVocabulary }): Classification {
  const text = normalizeMessage(message);
  if (!text || CASUAL.test(text)) return { level: "none", triggers: [] };

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
      const m = p.re.exec(text);
      if (m) {
        push(p.kind, m[0].trim());
        hqHits.push({ kind: p.kind, match: m[0].trim() });
      }
    }
  }
  for (const p of LOCAL_PATTERNS) {
    // for field agents, "how do I…" is an HQ procedural question, already counted above
    if (opts.variant === "field" && p.kind === "how_to" && hqHits.some((h) => h.kind === "procedural")) continue;
    const m = p.re.exec(text);
    if (m) push(p.kind, m[0].replace(/^[.!?\s]+/, "").trim());
  }
  const vocabulary = opts.compiled ?? compileVocabulary(opts.vocabulary ?? [], opts.selfName);
  let sharedName = false;
  for (const { re, term } of vocabulary) {
    if (re.test(text)) {
      push("name", term.term);
      if (term.type !== "contact" && term.type !== "term") sharedName = true;
    }
  }

  if (triggers.length === 0) return { level: "none", triggers };
  if (opts.variant === "field") return { level: hqHits.length ? "hq" : "local", triggers };
  // internal: the team's shared knowledge when the message concerns other agents, clients or
  // shared projects, or is a team decision/plan ("should we", "roadmap"); otherwise own memory
  const teamish = /\b(?:we|we're|we've|our|us|let's|team|everyone|everybody|the others)\b/.test(text);
  const teamKinds = triggers.some((t) => t.kind === "decision" || t.kind === "planning" || t.kind === "past_reference");
  const level = sharedName || (teamish && teamKinds) ? "shared" : "local";
  return { level, triggers };
}
