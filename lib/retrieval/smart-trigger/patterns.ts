/**
 * The smart trigger's patterns: what in a message says it needs retrieved context, and of which
 * kind. They are built from word classes rather than fixed phrases, so paraphrases of one need
 * ("did I promise", "what did we agree", "I've never used…", "I have not handled…") land on the
 * same rule. They run on normalised text (text.ts): lower case, straight apostrophes, negations
 * folded to "n't" ("did not" → "didn't", "dont" → "don't"). Each list is one alternative per line;
 * the names a message may mention come from the caller's data (vocabulary.ts), never from here.
 */
import type { TriggerKind } from "./types";

export interface Pattern {
  kind: TriggerKind;
  re: RegExp;
}

const src = (re: RegExp) => re.source;
/** one of the alternatives, as a non-capturing group */
export const alt = (...words: string[]) => `(?:${words.join("|")})`;
/** any of the alternatives as whole words */
const wholeWords = (alternatives: string[], flags?: string) => new RegExp(`\\b${alt(...alternatives)}\\b`, flags);

// ── word classes ─────────────────────────────────────────────────────────────────────────────────

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
const SAID_VERB = alt("said", "told", "mentioned", "discussed", "noted", "wrote", "saved", "logged", "decided", "chose", "picked", "approved", "quoted", "set", "gave", "asked", "talked", "spoke", "spoken", "tried", "used", "sent", "started", "worked", "left", "put", "planned", "concluded");
const SAID = `(?:${SELF}|${TEAM}|you|he|she|they) (?:already |previously |once |never |just )?${SAID_VERB}\\b`;
const QUESTION_WORD = alt("what", "when", "where", "who", "whom", "why", "how", "which");

// ── the agent's own memory (local, and shared for internal agents) ──────────────────────────────

const DECISION = [
  "should (?:we|i)",
  "shall we",
  "i think we should",
  "we should",
  "let's",
  "lets (?:go|do|try|use|move|switch|pick)",
  "we decided",
  "(?:we|i) need to decide",
  "decision (?:on|about|to)",
  "go with",
  "what if we",
  "are we going to",
  "do we want to",
  "was decided",
  "(?:what|how) did (?:we|the team|they|you|i) (?:decide|conclude|settle)",
  "takeaways?",
  "reasoning (?:behind|for)",
];

/** "said I'd", "told them we will" */
const SAID_WE_WOULD = "\\b(?:said|told \\w+(?: \\w+)?) (?:i|we|you)(?:'d| would| will|'ll)\\b";

const REMEMBERED = [
  "remember (?:when|that|the|how|what)",
  "do you remember",
  "last (?:time|week|month|quarter) (?:we|you|i|they)",
  "didn't we",
  "did we (?:ever|already|not)",
  "haven't we",
  "we (?:already|previously) ",
  "previously",
  "(?:as|like) (?:we|you|i) (?:said|discussed|agreed|decided)",
  "what did (?:we|you|i) (?:decide|say|do|agree|try)",
  "we talked about",
  "back when",
  "the other day",
];

/** Each alternative on its own: any of them makes a message a reference to the past. */
const PAST_REFERENCE = [
  src(wholeWords(REMEMBERED)),
  // questions about past events: "when did…", "what happened with…", "how did … go", "did X ever…"
  `\\b${QUESTION_WORD}(?: \\w+)? ${PAST_AUX}\\b`,
  `\\bwhat(?:ever)? (?:happened|came of|went wrong)\\b`,
  `\\b(?:turn(?:ed)? out|outcome|result of|how (?:did|was) .{1,40} go)\\b`,
  `\\b${QUESTION_WORD}\\b[^.?!]{0,40}\\b${PAST_AUX} (?:i|we|you|he|she|they)\\b`,
  `(?:^|[.!?,;:\u2013\u2014-] ?)(?:${PAST_AUX} ${SUBJECT}|(?:did|didn't) [\\p{L}]+)\\b`,
  `\\b(?:${PAST_AUX}) [\\p{L}']+(?: [\\p{L}']+)? (?:ever|already|before|previously|yet)\\b`,
  `\\bprefer(?:s|red|ences?)?\\b`,
  // what one person wants or likes is a preference too: "how does the customer want to be contacted?",
  // "does this client like email?"
  `\\bwant(?:s|ed)? to be (?:contacted|called|reached|texted|emailed|addressed|notified|visited|billed|invoiced)\\b`,
  `\\b(?:does|did|do) (?:the|this|that|our|my|your) (?:customer|client|caller|homeowner|tenant|contact|landlord|owner)s? (?:like|want|need|usually|normally|always|still)\\b`,
  `\\b(?:(?:where|how far(?: along)?) (?:am i|are we)|(?:my|our) (?:\\w+ )?(?:progress|status|plate|schedule|calendar|notes|tasks?|reminders?))\\b`,
  `\\b(?:ever|already|before|previously|earlier|again)\\s*[?]`,
  `\\b(?:yesterday|earlier|this morning|last ${TIME_UNIT}|(?:a|one|two|three|few|\\d+) (?:days?|weeks?|months?|years?) ago|since (?:the )?${TIME_UNIT}|before the \\w+|previous(?:ly)?|the other (?:day|week))\\b`,
  `\\b(?:i've|i have|i'd|i had|we've|we have|i haven't|we haven't) (?:never|not|already|ever|once)\\b`,
  `\\b(?:never|not|haven't|hasn't|hadn't)(?: yet| ever)? (?:been|used|done|tried|handled|seen|set up|touched|talked|spoken|worked|issued|sent|met|visited|had)\\b`,
  `\\bany (?:notes|history|background|context)\\b`,
  `\\b${RECALL}\\b`,
  `\\b${SAID}`,
];

const PLANNING = [
  "next steps?",
  "implementation (?:order|plan)",
  "road ?map",
  "plan (?:for|to|out)",
  "strategy",
  "strategi[sz]e",
  "prioriti[sz](?:e|ation)",
  "priorities",
  "milestones?",
  "timeline",
  "phase (?:\\d|one|two|three)",
  "game plan",
  "this (?:week|quarter)'s (?:plan|goals?)",
  "what's (?:next|the plan)",
  "(?:'s|our|team) plan\\b",
  "on my plate",
  "to-?do",
  "action items?",
  "working on",
  "scheduled",
  "deadline",
  "who (?:owns|handles|is (?:handling|working on|responsible for|in charge of)|knows (?:the most|about|how))",
  "which of us",
  "who on the team",
];

/** a sentence that opens by disagreeing */
const SENTENCE_START = "(?:^|[.!?]\\s+)";
const CORRECTION_OPENER = ["actually", "nope", "wrong", "correction", "not quite", "but", "wait", "hmm"];
const CORRECTION_PHRASE = [
  "that's not (?:right|correct|true|what)",
  "that isn't (?:right|correct|true)",
  "that's (?:wrong|incorrect|outdated|the old|the wrong)",
  "you're (?:wrong|mistaken|mixing)",
  "(?:you|i) (?:misunderstood|mixed (?:it|them|that) up)",
  "mixing (?:it|them|that) up",
  "i meant",
  "to clarify",
  "let me correct",
  "you got (?:it|that) wrong",
  "not what i (?:said|meant|asked)",
  "(?:it|that|this|the \\w+(?: \\w+)?) (?:has )?(?:changed|moved)",
  "outdated",
  "old version",
  "wrong (?:address|number|date|time|name|file|version|one|person|client|price)",
];
const CORRECTION = [
  `${SENTENCE_START}${alt(...CORRECTION_OPENER)}\\b`,
  `${SENTENCE_START}no,`,
  "\\bactually,",
  `\\b${alt(...CORRECTION_PHRASE)}\\b`,
  // "Tuesday, not Monday"
  "\\b\\w+, not \\w+",
];

const HOW_TO = [
  "how (?:do|should|can|would|did) (?:i|we)",
  "what's (?:the|my|our) (?:process|procedure|best way|policy|stance|rule|approach) (?:for|to|on|about|when)",
  "how to",
  "what are the steps",
  "(?:our|the team's|company) (?:policy|policies|stance|rules?|process|guidelines?)",
];

export const LOCAL_PATTERNS: Pattern[] = [
  { kind: "decision", re: wholeWords(DECISION) },
  { kind: "commitment", re: new RegExp(`\\b${COMMIT}\\b|${SAID_WE_WOULD}`) },
  { kind: "past_reference", re: new RegExp(PAST_REFERENCE.join("|"), "u") },
  { kind: "planning", re: wholeWords(PLANNING) },
  { kind: "correction", re: new RegExp(CORRECTION.join("|")) },
  { kind: "how_to", re: wholeWords(HOW_TO) },
];

// ── the HQ knowledge base (field agents) ────────────────────────────────────────────────────────

const PROCEDURAL = [
  "how (?:do|should|can|would|am) i",
  "how (?:are|am) (?:we|i) supposed to",
  "what's the (?:right|correct|proper|best|standard|usual|official) (?:way|process|procedure)",
  "what's the (?:process|procedure|protocol|escalation path|policy) (?:for|when|if|on|to)",
  "(?:is there|do we have|where's|where is) (?:a|an|the) (?:script|template|checklist|procedure|protocol|guide|guideline|sop|playbook|policy|rule)",
  "standard (?:procedure|process|turnaround|practice)",
  "sop for",
  "best practice",
  "what are the (?:steps|rules)",
  "(?:the |company |hq )?polic(?:y|ies) (?:on|for|about)",
  "company policy",
  "the rules (?:for|on|about)",
  "what do i (?:do|say|tell)",
  "where do i (?:find|start|get|report|log|send)",
  "what's involved",
  "do we (?:charge|offer|have|allow|cover|give|do)\\b",
];

const ERROR = [
  "errors?",
  "failed",
  "failing",
  "fails",
  "failure",
  "broken",
  "(?:not|isn't|aren't|wasn't|weren't) (?:working|syncing|loading|sending|showing)",
  "doesn't work",
  "won't (?:work|send|load|open|sync|save|let me)",
  "stopped working",
  "something went wrong",
  "can't (?:figure out|log ?in|sign in|open|load|connect|find the)",
  "crash(?:ed|es|ing)?",
  "bug",
  "glitch(?:y|es)?",
  "timed? ?out",
  "exception",
  "(?:is|went) down",
  "keeps? (?:\\w+ing|logging me out)",
  "declined",
  "bounc(?:ed|ing)",
  "invalid",
  "blank (?:screen|page)",
  "nothing happens",
  "never (?:arrived|came|went out|showed up)",
  "(?:didn't|doesn't) (?:go through|apply|send|arrive|load|sync|save)",
  "looks wrong",
  "shows the wrong",
  "why (?:does|is|did|are|won't|can't|isn't|doesn't) (?:the|my|it|this|our)",
  "going out twice",
  "duplicated?",
  "stuck",
  "frozen",
  // an HTTP error status
  "\\b[45]\\d\\d\\b",
];

const SCOPE = [
  "can (?:i|we) (?:do|handle|promise|offer|say|send|give|waive|discount|refund|charge|accept|approve|cancel|skip|treat|spray|enter|book|legally|agree|sign|quote)",
  "is this something (?:i|we) (?:handle|do|should)",
  "is (?:that|this|it) something (?:we|i) (?:do|handle|offer)",
  "should i be doing",
  "outside (?:my|of my|our) (?:scope|service area|area)",
  "out of scope",
  "(?:am i|are we) (?:allowed|able|permitted|authori[sz]ed|supposed) to",
  "is it ok(?:ay)? (?:if|to|for me)",
  "allowed to",
  "within my (?:scope|authority|role)",
  "my responsibility",
  "my call",
  "up to me",
  "(?:do i|does it) need (?:approval|permission|sign-off)",
  "need approval",
  "(?:do|should) i handle",
  "or does hq",
  "not sure if i (?:can|should|am)",
  "legally",
];

const ESCALATION = [
  "should i escalate",
  "escalat(?:e|ed|ion|ing)",
  "is this urgent",
  "urgent",
  "do i need to (?:tell|notify|inform|report)",
  "(?:contact|call|notify|alert|tell|inform|flag (?:it|this) (?:to|for)) hq",
  "hq",
  "loop in (?:hq|someone|a human)",
  "hand (?:it )?off to",
  "(?:talk to|go to) a human",
  "who do i (?:tell|ask|report|call)",
  "lawsuit",
  "lawyer",
  "attorney",
  "sue",
  "suing",
  "legal action",
  "threaten(?:ed|ing)?",
  "injur(?:y|ed|ies)",
  "stung",
  "bitten",
  "hurt",
  "allergic",
  "reaction",
  "compensation",
  "safety (?:issue|concern|hazard)",
  "gas (?:smell|leak)",
  "emergency",
  "aggressive",
  "report (?:a|this|an) (?:safety|incident|injury)",
];

const TOOL = [
  "how does (?:the )?[\\w-]+(?: [\\w-]+)? work",
  "how does (?:that|this|it) work",
  "never (?:used|done|tried|handled|issued|sent|set up) ",
  "(?:haven't|have not|i've not|not yet) (?:used|done|tried|handled|issued|sent|set up)",
  "what skill (?:do i use|should i use|is) for",
  "which (?:skill|tool|app|feature|form|button|screen) (?:do|should|is|to)",
  "first time (?:using|sending|doing|handling)",
  "new system",
  "in the app",
  "any guide",
];

export const HQ_PATTERNS: Pattern[] = [
  { kind: "procedural", re: wholeWords(PROCEDURAL) },
  { kind: "error", re: wholeWords(ERROR) },
  { kind: "scope", re: wholeWords(SCOPE) },
  { kind: "escalation", re: wholeWords(ESCALATION) },
  { kind: "tool", re: wholeWords(TOOL) },
];

// ── what never triggers, and who is named ────────────────────────────────────────────────────────

/** pleasantries and acknowledgements */
const PLEASANTRY = [
  "hi",
  "hey",
  "hello",
  "yo",
  "good (?:morning|afternoon|evening|night)",
  "morning",
  "thanks?(?: you)?(?: so much| a lot| a bunch)?",
  "thx",
  "ty",
  "cheers",
  "ok(?:ay)?",
  "cool",
  "great",
  "nice",
  "awesome",
  "perfect",
  "lovely",
  "got it",
  "sounds good",
  "will do",
  "on it",
  "done",
  "bye",
  "see (?:you|ya)",
  "np",
  "no (?:problem|worries)",
  "sure(?: thing)?",
  "yep",
  "yes",
  "lol",
  "haha",
  "appreciate it",
  "👍",
  "🙏",
];
/**
 * Messages that are only pleasantries (and perhaps one name) never trigger, even when a name
 * appears ("Thanks Sam!").
 */
export const CASUAL = new RegExp(`^(?:${alt(...PLEASANTRY)}[\\s,!.?:;-]*)+(?:[\\w'-]+)?[\\s!.?]*$`, "u");

/** Verbs that start an editing task: what follows their colon is material, not the request. */
const EDITING_VERB = [
  "rewrite",
  "rephrase",
  "translate",
  "summari[sz]e",
  "proofread",
  "spell-?check",
  "format",
  "reformat",
  "sort",
  "convert",
  "shorten",
  "fix",
  "count",
  "capitali[sz]e",
  "turn (?:this|these|it)",
  "make (?:this|it)",
  "add \\w+ to",
  "reply",
  "text",
  "tell",
  "write",
];
export const EDITING_TASK = new RegExp(`^(?:please )?${alt(...EDITING_VERB)}\\b[^:]*:`, "i");

// Internal agents: "Jenna said…", "ask Kevin", "Dr. Okafor" — a capitalised name next to a
// person's verb, or after a title, is someone memory may know about. Field agents hear only the
// names of their own client's data (and titled names), never guesses at other names.
export const TITLED = /\b(?:Mr|Mrs|Ms|Mx|Dr|Miss|Prof)\.? [A-Z][\p{L}'-]+/u;
// the cue words in either case ("Ask Kofi", "then ask Kofi"); the name itself must be capitalised
const anyCase = (words: string) => words.replace(/\b([a-z])/g, (_, c: string) => `[${c}${c.toUpperCase()}]`);
/** verbs that take a person: "ask Kofi", "met Priya"; and questions about one: "who is Anthony", "how old is Max" */
const CUE_BEFORE = [
  "from", "with", "ask", "asked", "tell", "told", "call", "called", "email", "emailed", "text", "texted", "ping", "cc", "loop in", "remind", "meet", "met",
  "who is", "who's", "who was", "how old is",
];
/** verbs that take a person after "to": "send it to Kofi", "talked to Priya" */
const CUE_BEFORE_TO = ["send", "sent", "give", "gave", "forward", "reply", "write", "talk", "talked", "speak", "spoke", "reach out", "introduce", "mention"];
/** verbs a person does: "Jenna said", "Kofi wants" */
const CUE_AFTER = ["said", "says", "asked", "wants", "wanted", "called", "mentioned", "emailed", "texted", "replied", "thinks", "thought", "prefers", "promised", "agreed", "complained", "confirmed", "suggested", "recommended", "sent", "needs"];
export const PERSON_CUE = new RegExp(
  `(?:\\b(?:${anyCase(CUE_BEFORE.join("|"))}|${anyCase(alt(...CUE_BEFORE_TO))}(?: \\p{L}+)? to)\\s+([A-Z][\\p{Ll}'-]+)\\b` +
    `|(?<=[\\p{L},]\\s)([A-Z][\\p{Ll}'-]+)\\s+${alt(...CUE_AFTER)})`,
  "u",
);
/** capitalised words that are not people */
export const NOT_NAMES = new Set(
  [
    "I HQ",
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday",
    "January February March April May June July August September October November December",
    "English Spanish French German",
    "Christmas Easter Thanksgiving",
    "Google Slack Zoom Excel Stripe LinkedIn Facebook Twitter Instagram",
  ]
    .join(" ")
    .split(" "),
);

/** the team itself, or other agents, named without a name */
export const TEAM_NAMED = wholeWords([
  "team",
  "team's",
  "teams",
  "everyone",
  "everybody",
  "somebody",
  "someone else",
  "anyone on",
  "anybody on",
  "the others",
  "other agents?",
  "between agents",
  "each other",
  "which of us",
  "who on the team",
  "any of us",
  "all of us",
  "each of us",
  "none of us",
]);
/**
 * Someone else's team ("Dana's team", "the client's team", "their team"): a person's or a company's
 * team is not the caller's own, so it does not make a message the team's (`TEAM_NAMED`); the person
 * or client, when known, still counts by name. "Your team" is the agent's own and still counts.
 */
export const OTHERS_TEAM = /(?:\b[\p{L}\p{N}]+'s|\b(?:their|his|her))\s+teams?\b/gu;
/** first person plural: the team's policies, plans and priorities ("our policy", "do we have a roadmap") */
export const PLURAL = wholeWords(["we", "we're", "we've", "we'd", "we'll", "our", "ours", "us", "let's"]);
