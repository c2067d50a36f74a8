/**
 * The smart trigger: a zero-token classifier that decides, before any search,
 * whether a message needs retrieved context and from where.
 *
 *   internal agents: none | local | shared   (shared = the team's shared knowledge)
 *   field agents:    none | local | hq       (hq = the read-only HQ knowledge base)
 *
 * Levels include the ones below them: `shared` and `hq` search the agent's own memory too.
 * Names (agents, clients, their trigger terms, contacts, missions, and the people in the agent's own
 * memory) come from the caller's data, never from this file, and a field agent's vocabulary never
 * holds internal team names.
 *
 * Internal agents follow "search local files first; if local search is insufficient or the topic
 * involves other agents or shared projects, query the shared knowledge": decision language and past
 * references ("should we…", "let's…", "last time we…", "didn't we…") are `local` unless the message
 * names another agent, a client, a shared project or mission, or the team; the retrieval falls back
 * to the shared memory when the agent's own scopes find nothing.
 */

export type TriggerVariant = "internal" | "field";
export type TriggerLevel = "none" | "local" | "shared" | "hq";

export type TriggerKind =
  | "decision"
  | "commitment"
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
  /**
   * what the term names; `agent`, `client`, `term` and `mission` are shared context for internal
   * agents. `person`: someone in the agent's own memory (a speaker of its conversations, a name its
   * memories mention), matched only when written capitalised ("Will", not "will").
   */
  type: "agent" | "client" | "contact" | "mission" | "term" | "person";
}

export interface Classification {
  level: TriggerLevel;
  triggers: Trigger[];
}

interface Pattern {
  kind: TriggerKind;
  re: RegExp;
}

// Patterns are built from word classes rather than fixed phrases, so paraphrases of one need
// ("did I promise", "what did we agree", "I've never used…", "I have not handled…") land on the
// same rule. They run on normalised text (see normalizeMessage): lower case, straight apostrophes,
// negations folded to "n't" ("did not" → "didn't", "dont" → "don't").
const src = (re: RegExp) => re.source;
const alt = (...words: string[]) => `(?:${words.join("|")})`;

/** the speaker, the team, and people or things only memory can resolve */
const SELF = alt("i", "i'm", "i've", "i'd", "i'll", "me", "my", "myself");
const TEAM = alt("we", "we're", "we've", "we'd", "we'll", "us", "our", "ours");
const SUBJECT = alt("i", "we", "you", "he", "she", "they", "it", "anyone", "anybody", "someone", "somebody", "everyone", "everybody", "the \\w+", "this \\w+", "that \\w+", "[\\p{L}]+'s? \\w+");
/** auxiliaries that put a question in the past or the perfect */
const PAST_AUX = alt("did", "didn't", "have", "haven't", "has", "hasn't", "had", "hadn't", "was", "wasn't", "were", "weren't");
const TIME_UNIT = alt("time", "week", "month", "year", "quarter", "night", "visit", "call", "meeting", "session", "season", "spring", "summer", "fall", "autumn", "winter", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "weekend");
const COMMIT = alt(
  "promis(?:e|es|ed|ing)",
  "commit(?:s|ted|ting|ment|ments)?",
  "agree(?:s|d|ing|ment|ments)?",
  "pledg(?:e|ed)",
  "guarantee(?:d|s)?",
  "owe(?:s|d)?",
  "(?:gave|give) (?:my|our|them|him|her) word",
  "(?:made|struck|cut) a deal",
  "(?:our|the|that) deal",
  "sign(?:ed)? off",
  "settle(?:d)? on",
);
const RECALL = alt(
  "remind me",
  "remember",
  "recall",
  "refresh me",
  "catch me up",
  "fill me in",
  "go back to",
  "pick up (?:the|where|from|my)",
  "continue (?:where|from|with)",
  "left off",
  "(?:same|as) (?:as )?(?:before|last|usual|we did)",
  "the usual",
  "usual(?:ly)?",
  "normally",
  "(?:notes?|history|background) (?:on|from|about|of|with|do i have)",
  "(?:status|progress|latest|news) (?:of|on|with|from|about)",
  "updates? (?:on|from|about)",
  "where (?:are|were|am) (?:we|i) (?:on|with|at)",
  "follow(?:ing)?[ -]up on",
  "wrote (?:it|this|that) down",
  "write (?:it|this|that) down",
  "(?:as|like) (?:i|we|you) (?:said|mentioned|discussed|agreed|decided|noted)",
);
/** something said, decided or done before: "I told you", "we quoted", "she said" */
const SAID = `(?:${SELF}|${TEAM}|you|he|she|they) (?:already |previously |once |never |just )?${alt("said", "told", "mentioned", "discussed", "noted", "wrote", "saved", "logged", "decided", "chose", "picked", "approved", "quoted", "set", "gave", "asked", "talked", "spoke", "spoken", "tried", "used", "sent", "started", "worked", "left", "put", "planned", "concluded")}\\b`;

const LOCAL_PATTERNS: Pattern[] = [
  { kind: "decision", re: /\b(?:should (?:we|i)|shall we|i think we should|we should|let's|lets (?:go|do|try|use|move|switch|pick)|we decided|(?:we|i) need to decide|decision (?:on|about|to)|go with|what if we|are we going to|do we want to|was decided|(?:what|how) did (?:we|the team|they|you|i) (?:decide|conclude|settle)|takeaways?|reasoning (?:behind|for))\b/ },
  { kind: "commitment", re: new RegExp(`\\b${COMMIT}\\b|\\b(?:said|told \\w+(?: \\w+)?) (?:i|we|you)(?:'d| would| will|'ll)\\b`) },
  {
    kind: "past_reference",
    re: new RegExp(
      [
        src(/\b(?:remember (?:when|that|the|how|what)|do you remember|last (?:time|week|month|quarter) (?:we|you|i|they)|didn't we|did we (?:ever|already|not)|haven't we|we (?:already|previously) |previously|(?:as|like) (?:we|you|i) (?:said|discussed|agreed|decided)|what did (?:we|you|i) (?:decide|say|do|agree|try)|we talked about|back when|the other day)\b/),
        // questions about past events: "when did…", "what happened with…", "how did … go", "did X ever…"
        `\\b(?:what|when|where|who|whom|why|how|which)(?: \\w+)? ${PAST_AUX}\\b`,
        `\\bwhat(?:ever)? (?:happened|came of|went wrong)\\b`,
        `\\b(?:turn(?:ed)? out|outcome|result of|how (?:did|was) .{1,40} go)\\b`,
        `\\b(?:what|when|where|who|whom|why|how|which)\\b[^.?!]{0,40}\\b${PAST_AUX} (?:i|we|you|he|she|they)\\b`,
        `(?:^|[.!?,;:\u2013\u2014-] ?)(?:${PAST_AUX} ${SUBJECT}|(?:did|didn't) [\\p{L}]+)\\b`,
        `\\b(?:${PAST_AUX}) [\\p{L}']+(?: [\\p{L}']+)? (?:ever|already|before|previously|yet)\\b`,
        `\\bprefer(?:s|red|ences?)?\\b`,
        `\\b(?:(?:where|how far(?: along)?) (?:am i|are we)|(?:my|our) (?:\\w+ )?(?:progress|status|plate|schedule|calendar|notes|tasks?|reminders?))\\b`,
        `\\b(?:ever|already|before|previously|earlier|again)\\s*[?]`,
        `\\b(?:yesterday|earlier|this morning|last ${TIME_UNIT}|(?:a|one|two|three|few|\\d+) (?:days?|weeks?|months?|years?) ago|since (?:the )?${TIME_UNIT}|before the \\w+|previous(?:ly)?|the other (?:day|week))\\b`,
        `\\b(?:i've|i have|i'd|i had|we've|we have|i haven't|we haven't) (?:never|not|already|ever|once)\\b`,
        `\\b(?:never|not|haven't|hasn't|hadn't)(?: yet| ever)? (?:been|used|done|tried|handled|seen|set up|touched|talked|spoken|worked|issued|sent|met|visited|had)\\b`,
        `\\bany (?:notes|history|background|context)\\b`,
        `\\b${RECALL}\\b`,
        `\\b${SAID}`,
      ].join("|"),
      "u",
    ),
  },
  { kind: "planning", re: /\b(?:next steps?|implementation (?:order|plan)|road ?map|plan (?:for|to|out)|strategy|strategi[sz]e|prioriti[sz](?:e|ation)|priorities|milestones?|timeline|phase (?:\d|one|two|three)|game plan|this (?:week|quarter)'s (?:plan|goals?)|what's (?:next|the plan)|(?:'s|our|team) plan\b|on my plate|to-?do|action items?|working on|scheduled|deadline|who (?:owns|handles|is (?:handling|working on|responsible for|in charge of)|knows (?:the most|about|how))|which of us|who on the team)\b/ },
  { kind: "correction", re: /(?:^|[.!?]\s+)(?:actually|nope|wrong|correction|not quite|but|wait|hmm)\b|(?:^|[.!?]\s+)no,|\bactually,|\b(?:that's not (?:right|correct|true|what)|that isn't (?:right|correct|true)|that's (?:wrong|incorrect|outdated|the old|the wrong)|you're (?:wrong|mistaken|mixing)|(?:you|i) (?:misunderstood|mixed (?:it|them|that) up)|mixing (?:it|them|that) up|i meant|to clarify|let me correct|you got (?:it|that) wrong|not what i (?:said|meant|asked)|(?:it|that|this|the \w+(?: \w+)?) (?:has )?(?:changed|moved)|outdated|old version|wrong (?:address|number|date|time|name|file|version|one|person|client|price))\b|\b\w+, not \w+/ },
  { kind: "how_to", re: /\b(?:how (?:do|should|can|would|did) (?:i|we)|what's (?:the|my|our) (?:process|procedure|best way|policy|stance|rule|approach) (?:for|to|on|about|when)|how to|what are the steps|(?:our|the team's|company) (?:policy|policies|stance|rules?|process|guidelines?))\b/ },
];

const HQ_PATTERNS: Pattern[] = [
  {
    kind: "procedural",
    re: /\b(?:how (?:do|should|can|would|am) i|how (?:are|am) (?:we|i) supposed to|what's the (?:right|correct|proper|best|standard|usual|official) (?:way|process|procedure)|what's the (?:process|procedure|protocol|escalation path|policy) (?:for|when|if|on|to)|(?:is there|do we have|where's|where is) (?:a|an|the) (?:script|template|checklist|procedure|protocol|guide|guideline|sop|playbook|policy|rule)|standard (?:procedure|process|turnaround|practice)|sop for|best practice|what are the (?:steps|rules)|(?:the |company |hq )?polic(?:y|ies) (?:on|for|about)|company policy|the rules (?:for|on|about)|what do i (?:do|say|tell)|where do i (?:find|start|get|report|log|send)|what's involved|do we (?:charge|offer|have|allow|cover|give|do)\b)\b/,
  },
  {
    kind: "error",
    re: /\b(?:errors?|failed|failing|fails|failure|broken|(?:not|isn't|aren't|wasn't|weren't) (?:working|syncing|loading|sending|showing)|doesn't work|won't (?:work|send|load|open|sync|save|let me)|stopped working|something went wrong|can't (?:figure out|log ?in|sign in|open|load|connect|find the)|crash(?:ed|es|ing)?|bug|glitch(?:y|es)?|timed? ?out|exception|(?:is|went) down|keeps? (?:\w+ing|logging me out)|declined|bounc(?:ed|ing)|invalid|blank (?:screen|page)|nothing happens|never (?:arrived|came|went out|showed up)|(?:didn't|doesn't) (?:go through|apply|send|arrive|load|sync|save)|looks wrong|shows the wrong|why (?:does|is|did|are|won't|can't|isn't|doesn't) (?:the|my|it|this|our)|going out twice|duplicated?|stuck|frozen|\b[45]\d\d\b)\b/,
  },
  {
    kind: "scope",
    re: /\b(?:can (?:i|we) (?:do|handle|promise|offer|say|send|give|waive|discount|refund|charge|accept|approve|cancel|skip|treat|spray|enter|book|legally|agree|sign|quote)|is this something (?:i|we) (?:handle|do|should)|is (?:that|this|it) something (?:we|i) (?:do|handle|offer)|should i be doing|outside (?:my|of my|our) (?:scope|service area|area)|out of scope|(?:am i|are we) (?:allowed|able|permitted|authori[sz]ed|supposed) to|is it ok(?:ay)? (?:if|to|for me)|allowed to|within my (?:scope|authority|role)|my responsibility|my call|up to me|(?:do i|does it) need (?:approval|permission|sign-off)|need approval|(?:do|should) i handle|or does hq|not sure if i (?:can|should|am)|legally)\b/,
  },
  {
    kind: "escalation",
    re: /\b(?:should i escalate|escalat(?:e|ed|ion|ing)|is this urgent|urgent|do i need to (?:tell|notify|inform|report)|(?:contact|call|notify|alert|tell|inform|flag (?:it|this) (?:to|for)) hq|hq|loop in (?:hq|someone|a human)|hand (?:it )?off to|(?:talk to|go to) a human|who do i (?:tell|ask|report|call)|lawsuit|lawyer|attorney|sue|suing|legal action|threaten(?:ed|ing)?|injur(?:y|ed|ies)|stung|bitten|hurt|allergic|reaction|compensation|safety (?:issue|concern|hazard)|gas (?:smell|leak)|emergency|aggressive|report (?:a|this|an) (?:safety|incident|injury))\b/,
  },
  {
    kind: "tool",
    re: /\b(?:how does (?:the )?[\w-]+(?: [\w-]+)? work|how does (?:that|this|it) work|never (?:used|done|tried|handled|issued|sent|set up) |(?:haven't|have not|i've not|not yet) (?:used|done|tried|handled|issued|sent|set up)|what skill (?:do i use|should i use|is) for|which (?:skill|tool|app|feature|form|button|screen) (?:do|should|is|to)|first time (?:using|sending|doing|handling)|new system|in the app|any guide)\b/,
  },
];

// Messages that are only pleasantries or simple tasks never trigger, even when a name appears
// ("Thanks Sam!").
const CASUAL = /^(?:(?:hi|hey|hello|yo|good (?:morning|afternoon|evening|night)|morning|thanks?(?: you)?(?: so much| a lot| a bunch)?|thx|ty|cheers|ok(?:ay)?|cool|great|nice|awesome|perfect|lovely|got it|sounds good|will do|on it|done|bye|see (?:you|ya)|np|no (?:problem|worries)|sure(?: thing)?|yep|yes|lol|haha|appreciate it|👍|🙏)[\s,!.?:;-]*)+(?:[\w'-]+)?[\s!.?]*$/u;

/**
 * The part of a message that is a request rather than material to work on: quoted text is
 * removed, and so is everything after the colon of an editing task ("Rewrite this: …"), so the
 * words of a text being translated or proofread are not mistaken for a reference to the past.
 */
export function requestPart(text: string): string {
  let s = text.replace(/"[^"]*"/g, " ");
  if (/^(?:please )?(?:rewrite|rephrase|translate|summari[sz]e|proofread|spell-?check|format|reformat|sort|convert|shorten|fix|count|capitali[sz]e|turn (?:this|these|it)|make (?:this|it)|add \w+ to|reply|text|tell|write)\b[^:]*:/i.test(s)) {
    s = s.slice(0, s.indexOf(":"));
  }
  return s.replace(/\s+/g, " ").trim();
}

// Internal agents: "Jenna said…", "ask Kevin", "Dr. Okafor" — a capitalised name next to a
// person's verb, or after a title, is someone memory may know about. Field agents hear only the
// names of their own client's data (and titled names), never guesses at other names.
const TITLED = /\b(?:Mr|Mrs|Ms|Mx|Dr|Miss|Prof)\.? [A-Z][\p{L}'-]+/u;
// the cue words in either case ("Ask Kofi", "then ask Kofi"); the name itself must be capitalised
const anyCase = (words: string) => words.replace(/\b([a-z])/g, (_, c: string) => `[${c}${c.toUpperCase()}]`);
const PERSON_CUE = new RegExp(
  `(?:\\b(?:${anyCase("from|with|ask|asked|tell|told|call|called|email|emailed|text|texted|ping|cc|loop in|remind|meet|met")}|${anyCase("(?:send|sent|give|gave|forward|reply|write|talk|talked|speak|spoke|reach out|introduce|mention)")}(?: \\p{L}+)? to)\\s+([A-Z][\\p{Ll}'-]+)\\b` +
    `|(?<=[\\p{L},]\\s)([A-Z][\\p{Ll}'-]+)\\s+(?:said|says|asked|wants|wanted|called|mentioned|emailed|texted|replied|thinks|thought|prefers|promised|agreed|complained|confirmed|suggested|recommended|sent|needs))`,
  "u",
);
const NOT_NAMES = new Set(
  "I HQ Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September October November December English Spanish French German Christmas Easter Thanksgiving Google Slack Zoom Excel Stripe LinkedIn Facebook Twitter Instagram".split(" "),
);

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
    const person = t.type === "person";
    // a person's name is matched as a name: each word capitalised, the rest of it in any case
    const pattern = person ? norm.split(" ").map((w) => (w ? escapeRe(w[0]!.toUpperCase()) + caseless(w.slice(1)) : "")).join("\\s+") : escaped;
    const entry: CompiledTerm = {
      re: new RegExp(`(?:^|[^\\p{L}\\p{N}])${pattern}(?:'s|s')?(?=$|[^\\p{L}\\p{N}])`, "u"),
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

/** the team itself, or other agents, named without a name */
const TEAM_NAMED = /\b(?:team|team's|teams|everyone|everybody|somebody|someone else|anyone on|anybody on|the others|other agents?|between agents|each other|which of us|who on the team|any of us|all of us|each of us|none of us)\b/;
/** first person plural: the team's policies, plans and priorities ("our policy", "do we have a roadmap") */
const PLURAL = /\b(?:we|we're|we've|we'd|we'll|our|ours|us|let's)\b/;

export function classify(message: string, opts: ClassifyOptions & { compiled?: CompiledVocabulary }): Classification {
  const text = normalizeMessage(message);
  if (!text || CASUAL.test(text)) return { level: "none", triggers: [] };
  const request = requestPart(text);
  const original = requestPart(message.normalize("NFKC").replace(/[\u2018\u2019\u02bc`´]/g, "'").replace(/[\u201c\u201d]/g, '"'));

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
    if (term.type !== "contact" && term.type !== "person") sharedName = true;
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

  if (triggers.length === 0) return { level: "none", triggers };
  if (opts.variant === "field") return { level: hqHits.length ? "hq" : "local", triggers };
  // internal: the team's shared knowledge when the message names other agents, clients (or their
  // terms) or shared projects and missions, or the team itself ("what did the team decide", "which
  // of us"), or asks for the team's policies and plans ("our policy on refunds", "our priorities");
  // otherwise the agent's own memory first — decisions and past references in the first person
  // plural ("should we…", "let's…", "last time we…", "didn't we…") included. A correction alone
  // stays local.
  const substantive = triggers.some((t) => t.kind !== "correction" && t.kind !== "name");
  const team = substantive && TEAM_NAMED.test(request);
  const teamPolicy = PLURAL.test(request) && triggers.some((t) => t.kind === "how_to" || t.kind === "planning");
  return { level: sharedName || team || teamPolicy ? "shared" : "local", triggers };
}
