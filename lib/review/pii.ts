/**
 * PII detection for memory suggestions and facts ("Never store: SSN, credit cards,
 * health, religion, politics"), and for free text that leaves its client (see "Personal data in
 * free text" below: names, addresses, phone numbers, emails). Pure functions, no I/O.
 *
 * Findings never carry the matched text: they are stored in audit entries and shown in the
 * console, and the whole point is that the PII itself goes nowhere.
 *
 * Trade-offs, chosen deliberately:
 * - SSNs: a formatted 3-2-4 number counts on its own; a bare nine-digit number only next to a
 *   context word ("SSN", "social security"), so zip+4 codes, order ids and phone numbers pass.
 *   Numbers the SSA never issues (area 000, 666 or 9xx, group 00, serial 0000) are not SSNs.
 * - Cards: 13–19 digits (spaces or dashes allowed) that pass Luhn AND start with a known issuer
 *   prefix of a valid length. Millisecond timestamps (1…), phone numbers (+…, or too short) and
 *   most order numbers fail one of the three tests.
 * - Topics: a lexicon of words that reveal a person's health, religion or politics, in the key or
 *   the value. Technical uses of "health" (a website's health check, system health, health score)
 *   are not health data and pass. The lexicon errs towards refusal: a false positive costs a
 *   re-worded suggestion, a false negative stores special-category data.
 */

export type PiiKind = "ssn" | "payment_card" | "health" | "religion" | "politics";

export interface PiiFinding {
  kind: PiiKind;
  /** where it was found: a suggestion's "key" or "value", or the request field that held it ("title", "tags[1]") */
  field: string;
  /** for cards, the issuer ("visa"); never the matched text */
  detail?: string;
}

export interface PiiInput {
  key: string;
  value: string;
}

/** Every PII finding in a key/value pair; empty when clean. */
export function detectPii(input: PiiInput): PiiFinding[] {
  const findings: PiiFinding[] = [];
  const keyTokens = tokenizeKey(input.key);
  const keyText = keyTokens.join(" ");

  if (isSsnKey(keyTokens)) findings.push({ kind: "ssn", field: "key" });
  if (containsSsn(input.value, { contextInKey: isSsnKey(keyTokens) })) findings.push({ kind: "ssn", field: "value" });
  for (const issuer of new Set(findPaymentCards(input.value))) findings.push({ kind: "payment_card", field: "value", detail: issuer });
  if (/\b(?:card|cc|pan)\b/.test(keyText) && /\b(?:credit|debit|card|cc)\b/.test(keyText) && /(?:\d[ -]?){12,}/.test(input.value)) {
    // a key that says "credit card number" with a long number in it, whatever the number's checksum
    if (!findings.some((f) => f.kind === "payment_card")) findings.push({ kind: "payment_card", field: "value" });
  }

  for (const kind of ["health", "religion", "politics"] as const) {
    if (keyMentionsTopic(keyTokens, kind)) findings.push({ kind, field: "key" });
    if (TOPIC_VALUE[kind].test(input.value)) findings.push({ kind, field: "value" });
  }
  return findings;
}

// ── SSN ──────────────────────────────────────────────────────────────────────────────────────────

/** Whether area-group-serial is a number the SSA could have issued. */
export function isValidSsn(area: string, group: string, serial: string): boolean {
  if (!/^\d{3}$/.test(area) || !/^\d{2}$/.test(group) || !/^\d{4}$/.test(serial)) return false;
  if (area === "000" || area === "666" || area.startsWith("9")) return false;
  return group !== "00" && serial !== "0000";
}

const SSN_FORMATTED = /(?<![\d-])(\d{3})([- ])(\d{2})\2(\d{4})(?![\d-])/g;
const SSN_BARE = /(?<!\d)(\d{3})(\d{2})(\d{4})(?!\d)/g;
const SSN_CONTEXT = /\b(?:ssn|ss#|s\.s\.n\.?|ss no|ss number|social security|social sec|soc\.? ?sec)/i;

/** Whether `text` holds a valid SSN: formatted (123-45-6789), or bare next to a context word. */
export function containsSsn(text: string, opts: { contextInKey?: boolean } = {}): boolean {
  for (const m of text.matchAll(SSN_FORMATTED)) {
    if (isValidSsn(m[1]!, m[3]!, m[4]!)) return true;
  }
  for (const m of text.matchAll(SSN_BARE)) {
    if (!isValidSsn(m[1]!, m[2]!, m[3]!)) continue;
    const before = text.slice(Math.max(0, m.index! - 40), m.index!);
    const after = text.slice(m.index! + 9, m.index! + 9 + 20);
    if (opts.contextInKey || SSN_CONTEXT.test(before) || SSN_CONTEXT.test(after)) return true;
  }
  return false;
}

function isSsnKey(tokens: string[]): boolean {
  return tokens.includes("ssn") || (tokens.includes("social") && tokens.includes("security"));
}

// ── Payment cards ────────────────────────────────────────────────────────────────────────────────

export type CardIssuer = "visa" | "mastercard" | "amex" | "discover" | "diners" | "jcb" | "unionpay" | "maestro";

interface IssuerRule {
  issuer: CardIssuer;
  /** inclusive prefix ranges, compared on the first digits of the number */
  ranges: [number, number][];
  lengths: number[];
}

const range = (from: number, to = from): [number, number] => [from, to];
const span = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

// Issuer identification numbers from the networks' published ranges (see ISO/IEC 7812 summaries).
const ISSUERS: IssuerRule[] = [
  { issuer: "amex", ranges: [range(34), range(37)], lengths: [15] },
  { issuer: "visa", ranges: [range(4)], lengths: [13, 16, 19] },
  { issuer: "mastercard", ranges: [range(51, 55), range(2221, 2720)], lengths: [16] },
  { issuer: "discover", ranges: [range(6011), range(644, 649), range(65), range(622126, 622925)], lengths: span(16, 19) },
  { issuer: "diners", ranges: [range(300, 305), range(3095), range(36), range(38, 39)], lengths: span(14, 19) },
  { issuer: "jcb", ranges: [range(3528, 3589)], lengths: span(16, 19) },
  { issuer: "unionpay", ranges: [range(62)], lengths: span(16, 19) },
  {
    issuer: "maestro",
    ranges: [range(5018), range(5020), range(5038), range(5893), range(6304), range(6759), range(6761, 6763)],
    lengths: span(13, 19),
  },
];

/** The card network whose prefix and length `digits` fits, or null. */
export function cardIssuer(digits: string): CardIssuer | null {
  if (!/^\d{13,19}$/.test(digits)) return null;
  for (const rule of ISSUERS) {
    if (!rule.lengths.includes(digits.length)) continue;
    for (const [from, to] of rule.ranges) {
      const width = String(from).length;
      const prefix = Number(digits.slice(0, width));
      if (prefix >= from && prefix <= to) return rule.issuer;
    }
  }
  return null;
}

/** The Luhn (mod 10) checksum every payment card number satisfies. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

// 13–19 digits, single spaces or dashes between them; not part of a longer digit run, not after a
// "+" (an international phone number)
const CARD_CANDIDATE = /(?<!\d[ -]?)(?<!\+)(\d(?:[ -]?\d){12,18})(?![ -]?\d)/g;

/** The issuers of every payment card number in `text` (one entry per card found). */
export function findPaymentCards(text: string): CardIssuer[] {
  const found: CardIssuer[] = [];
  for (const m of text.matchAll(CARD_CANDIDATE)) {
    const digits = m[1]!.replace(/[ -]/g, "");
    const issuer = cardIssuer(digits);
    if (issuer && luhnValid(digits)) found.push(issuer);
  }
  return found;
}

// ── Sensitive topics ─────────────────────────────────────────────────────────────────────────────

const TOPIC_VALUE: Record<"health" | "religion" | "politics", RegExp> = {
  health: new RegExp(
    "\\b(?:" +
      [
        "diagnos(?:is|es|ed)",
        "illness(?:es)?",
        "diseases?",
        "cancer",
        "tumou?rs?",
        "diabet(?:es|ic)",
        "hiv",
        "pregnan(?:t|cy)",
        "miscarriage",
        "depress(?:ion|ed)",
        "anxiety",
        "panic attacks?",
        "bipolar",
        "schizophreni\\w*",
        "ptsd",
        "adhd",
        "autis(?:m|tic)",
        "dementia",
        "alzheimer'?s",
        "parkinson'?s",
        "epilep(?:sy|tic)",
        "asthma(?:tic)?",
        "arthritis",
        "chemo(?:therapy)?",
        "surgery",
        "medications?",
        "prescri(?:bed|ptions?)",
        "therapist",
        "psychiatri(?:st|c)",
        "rehab",
        "addict(?:ion|ed)",
        "alcoholi(?:c|sm)",
        "mental (?:health|illness)",
        "medical (?:condition|history|issues?|records?)",
        "disabilit(?:y|ies)",
        "disabled",
        "blood pressure",
        "hypertension",
        "heart (?:attack|condition|disease|failure)",
        "(?:had|suffered) a stroke",
        "covid(?:-19)?",
        "hospitali[sz]ed",
        "in (?:the )?hospital",
        "allerg(?:y|ies|ic)",
        "hepatitis",
        "insulin",
        "dialysis",
        "health (?:issues?|problems?|conditions?|concerns?|scare|history|records?|status|insurance)",
        // disabilities and injuries a person has
        "(?:is|went|going|partially|legally) (?:blind|deaf)",
        "hard of hearing",
        "hearing aids?",
        "wheelchair (?:user|bound)",
        "uses a (?:wheelchair|walker|cane|hearing aid)",
        "in a wheelchair",
        "(?:broke|broken|fractured) (?:his |her |their |a |an )?(?:leg|arm|hip|wrist|ankle|back|neck|ribs?)",
        "(?:was|got|been|is) (?:badly |seriously )?injured",
        "(?:back|knee|neck|head|spinal|brain|sports) injur(?:y|ies)",
        "concussion",
        "paralys(?:ed|is)",
        "amputee",
        "(?:had|having|needs|needed|recovering from) (?:an? )?(?:operation|transplant|stroke|heart attack)",
      ].join("|") +
      ")\\b",
    "i",
  ),
  religion: new RegExp(
    "\\b(?:" +
      [
        "religio(?:n|ns|us)",
        "christian(?:s|ity)?",
        "catholic(?:s|ism)?",
        "protestant",
        "baptist",
        "methodist",
        "lutheran",
        "presbyterian",
        "pentecostal",
        "evangelical",
        "mormon",
        "latter[- ]day saints?",
        "jehovah'?s witness(?:es)?",
        "jewish",
        "judaism",
        "muslim",
        "islam(?:ic)?",
        "hindu(?:ism)?",
        "buddhis(?:t|m)",
        "sikh(?:ism)?",
        "atheis(?:t|m)",
        "agnostic",
        "scientolog\\w*",
        "(?:goes to|attends|attending) (?:a |the |his |her )?(?:church|mosque|synagogue|temple)",
        "church ?goer",
        "prays",
        "prayer",
        "bible study",
        "ramadan",
        "kosher",
        "halal",
        "quakers?",
        "amish",
        "mennonite",
        "orthodox (?:jew|christian|church)",
        "anglican",
        "episcopalian",
        "seventh[- ]day adventist",
        "unitarian",
        "shinto",
        "taoist",
        "pagan",
        "wiccan?",
        "born[- ]again",
      ].join("|") +
      ")\\b",
    "i",
  ),
  politics: new RegExp(
    "\\b(?:" +
      [
        "politics",
        "political(?:ly)?",
        "democrats?",
        "democratic party",
        "republicans?",
        "gop",
        "libertarian",
        "socialist",
        "communist",
        "maga",
        "left[- ]wing",
        "right[- ]wing",
        "party affiliation",
        "votes? (?:for|against|democrat|republican)",
        "voted (?:for|against)",
        "voter registration",
        "registered (?:democrat|republican|independent|voter)",
        "(?:liberal|conservative) (?:voter|politics|views)",
        "pro[- ](?:life|choice)",
        // a party, movement or cause a person belongs to or supports
        "(?:member|supporter) of the \\w+(?: \\w+)? party",
        "(?:supports|backs|joined) the \\w+(?: \\w+)? party",
        "(?:green|labou?r|tory|conservative|liberal|reform) party (?:member|supporter|voter|candidate|activist)",
        "tea party",
        "votes? (?:green|labou?r|tory|conservative|liberal|left|right|independent)",
        "nra member",
        "member of the nra",
        "black lives matter",
        "blm (?:supporter|activist)",
        "(?:union|campaign) (?:activist|organi[sz]er|volunteer)",
        "activist",
      ].join("|") +
      ")\\b",
    "i",
  ),
};

const TOPIC_KEY: Record<"health" | "religion" | "politics", Set<string>> = {
  health: new Set([
    "health", "medical", "medication", "medications", "diagnosis", "illness", "disease", "disability",
    "allergy", "allergies", "pregnancy", "therapy", "prescription", "prescriptions", "diet", "mental",
  ]),
  religion: new Set(["religion", "religious", "faith", "denomination", "church", "worship"]),
  politics: new Set(["politics", "political", "affiliation", "vote", "voter", "voting", "election", "ideology"]),
};

// "website_health", "health_check", "system_health": the health of a thing, not of a person
const TECHNICAL_HEALTH = new Set([
  "check", "checks", "score", "site", "website", "web", "system", "server", "api", "endpoint", "account",
  "pipeline", "service", "seo", "domain", "app", "uptime", "monitor", "page", "database", "db", "cluster",
]);

function keyMentionsTopic(tokens: string[], kind: "health" | "religion" | "politics"): boolean {
  if (!tokens.some((t) => TOPIC_KEY[kind].has(t))) return false;
  if (kind === "health" && tokens.includes("health") && tokens.some((t) => TECHNICAL_HEALTH.has(t))) {
    return tokens.some((t) => t !== "health" && TOPIC_KEY.health.has(t));
  }
  return true;
}

/** "creditCardNumber", "credit_card.number" → ["credit", "card", "number"] */
export function tokenizeKey(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9#]+/)
    .filter(Boolean);
}

export const PII_LABELS: Record<PiiKind, string> = {
  ssn: "a social security number",
  payment_card: "a payment card number",
  health: "health information",
  religion: "religious beliefs",
  politics: "political opinions",
};

/** A sentence for people and agents, naming what was found and where, never the text itself. */
export function describePii(f: PiiFinding): string {
  const issuer = f.detail ? ` (${f.detail})` : "";
  // a suggestion's key names what its value would be ("ssn", "medical_condition"): it asks for the data
  if (f.field === "key") return `The key asks for ${PII_LABELS[f.kind]}, which is never stored`;
  return `The ${f.field} contains ${PII_LABELS[f.kind]}${issuer}; it is never stored`;
}

// ── Personal data in free text ───────────────────────────────────────────────────────────────────
//
// A contact fact may well be an address or a phone number; free text that leaves a client — an
// escalation's question published to every client's agents as a knowledge entry — must carry none of
// a person's identity. `findPersonalData` finds, with positions so that it can be left out: names of
// people (the names it is given, such as the client's contacts, and name-like phrases: "customer Jane
// Roe", "Mrs. Roe", "a caller named Jane"), the client's own name, street addresses, phone numbers,
// email addresses, SSNs and payment card numbers. Deliberate trade-offs: a name is recognised by
// what introduces it (a role word, a title, "named") or because it is known, never by capitals alone
// ("The Booking Link Fails" is a title, not a person); a phone number needs the shape of one (grouped
// digits, a leading +, or a phone word before it), so dates, order numbers and amounts pass.

export const PERSONAL_DATA_KINDS = ["person_name", "client_name", "street_address", "phone_number", "email_address", "ssn", "payment_card"] as const;
export type PersonalDataKind = (typeof PERSONAL_DATA_KINDS)[number];

export interface PersonalDataSpan {
  kind: PersonalDataKind;
  start: number;
  end: number;
  /** what introduced a name ("customer", "Mrs.", "named"), when that is how it was recognised */
  introducedBy?: "role" | "title" | "named";
}

export interface KnownIdentities {
  /** people's names that must not leave the client: its contacts' names */
  names?: readonly string[];
  /** the client's own names (its name, its slug), which identify it to the other clients */
  clientNames?: readonly string[];
}

/** Words that introduce a person by their role: "customer Jane Roe". */
export const ROLE_WORDS = [
  "customer", "customers", "client", "caller", "contact", "tenant", "guest", "patient", "homeowner", "owner", "resident",
  "buyer", "seller", "lead", "prospect", "subscriber", "member", "user", "applicant", "landlord", "student", "parent",
];
// "customer" or "Customer"; names themselves are matched case-sensitively (they start with a capital)
const ROLE = ROLE_WORDS.map((w) => `[${w[0]!.toUpperCase()}${w[0]}]${w.slice(1)}`).join("|");
const TITLE = "Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Madam|Mister";
// one name: Jane, O'Brien, McDonald, Anne-Marie, and a middle initial
const NAME_TOKEN = "(?:[A-Z]['’])?[A-Z][a-z]*[A-Z]?[a-z]+(?:-[A-Z][a-z]+)?";
const NAME = `${NAME_TOKEN}(?:\\s+(?:[A-Z]\\.\\s+)?${NAME_TOKEN}){0,2}`;

// Capitalised words that follow a role word without being anyone's name ("Customer Support", "client Portal").
const NOT_NAMES = new Set(
  (
    "Support Service Services Success Care Portal Team Account Accounts Data Feedback Experience Relations Management Manager Id " +
    "Number Name Names List Database Record Records Login Email Phone Address Info Information Journey Satisfaction Onboarding App " +
    "Api Dashboard Agent Agents Hub Center Centre Desk Line Chat Inquiry Request Requests Ticket Tickets Review Reviews Survey " +
    "Notes Note Profile Profiles Base Segment Group Groups Side Area Zone Panel Settings Page Pages Form Forms Report Reports " +
    "Invoice Invoices Billing Payments Payment Order Orders Portal Contract Contracts Details Visit Visits Call Calls Care " +
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September " +
    "October November December The This That These Those And Or But If When Is Are Was Were Has Have Had Can Could Will Would " +
    "Should Says Said Wants Asks Asked Cannot Can't Does Did I"
  ).split(" "),
);

const ROLE_NAME = new RegExp(`\\b(${ROLE})(?:,\\s*|\\s+)(${NAME})`, "g");
const TITLED_NAME = new RegExp(`\\b(?:${TITLE})\\.?\\s+(${NAME})`, "g");
const NAMED = new RegExp(`\\b[Nn]amed\\s+(${NAME})`, "g");

// as written: "St", "st" or "ST"
const STREET_SUFFIX = (
  "St Street Ave Avenue Rd Road Blvd Boulevard Ln Lane Dr Drive Ct Court Way Pl Place Ter Terrace Pkwy Parkway Hwy Highway " +
  "Cir Circle Sq Square Trl Trail Row Close Crescent Cres Loop Alley Plaza"
)
  .split(" ")
  .flatMap((w) => [w, w.toLowerCase(), w.toUpperCase()])
  .join("|");
// a house number, one to three words of street name, a suffix ("12 Elm St", "123 5th Ave")
const STREET = new RegExp(
  "\\b\\d{1,6}[A-Za-z]?(?:-\\d{1,4})?\\s+(?:[NSEW]\\.?\\s+)?(?:(?:\\d{1,3}(?:st|nd|rd|th)|[A-Za-z][A-Za-z'’-]*)\\.?\\s+){1,3}" +
    `(?:${STREET_SUFFIX})\\b\\.?` +
    // a unit, then a city, state and ZIP code
    "(?:,?\\s*(?:Apt|Apartment|Suite|Ste|Unit|Flat|#)\\.?\\s*[\\w-]+)?" +
    "(?:,\\s*[A-Z][a-z]+(?:\\s[A-Z][a-z]+)*(?:,?\\s*[A-Z]{2})?(?:\\s+\\d{5}(?:-\\d{4})?)?)?",
  "g",
);
const PO_BOX = /\bP\.?\s?O\.?\s+Box\s+\d+/gi;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
// (555) 123-4567, 555-123-4567, 555.123.4567, +1 555 123 4567, +44 20 7946 0958, +18635551234
const PHONE_GROUPED = /(?<![\w+])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)\s?|\d{2,4}[\s.-])\d{3,4}[\s.-]\d{3,4}(?![\w-])/g;
const PHONE_E164 = /(?<![\w+])\+\d{8,15}(?!\w)/g;
// after a phone word, a number in any grouping: "call 5551234567", "mobile 0612 345 678"
const PHONE_AFTER_WORD = /\b(?:phone|tel|telephone|mobile|cell|call|text|sms|whatsapp)\b\D{0,12}?(\+?\(?\d{1,4}\)?(?:[\s.-]?\d{2,4}){1,4})(?![\w-])/gi;

/** Every piece of personal data in `text`, by position (overlaps merged: the longest wins). */
export function findPersonalData(text: string, known: KnownIdentities = {}): PersonalDataSpan[] {
  const spans: PersonalDataSpan[] = [];
  const add = (kind: PersonalDataKind, start: number, end: number, introducedBy?: PersonalDataSpan["introducedBy"]) => {
    if (end > start) spans.push({ kind, start, end, ...(introducedBy ? { introducedBy } : {}) });
  };

  for (const m of text.matchAll(ROLE_NAME)) {
    const name = leadingName(m[2]!);
    if (name) add("person_name", m.index! + m[0].length - m[2]!.length, m.index! + m[0].length - m[2]!.length + name.length, "role");
  }
  for (const m of text.matchAll(TITLED_NAME)) {
    const name = leadingName(m[1]!);
    if (name) add("person_name", m.index!, m.index! + m[0].length - m[1]!.length + name.length, "title");
  }
  for (const m of text.matchAll(NAMED)) {
    const name = leadingName(m[1]!);
    if (name) add("person_name", m.index!, m.index! + m[0].length - m[1]!.length + name.length, "named");
  }
  const lower = text.toLowerCase();
  for (const name of known.names ?? []) for (const [start, end] of occurrences(text, name, { parts: true, lower })) add("person_name", start, end);
  for (const name of known.clientNames ?? []) for (const [start, end] of occurrences(text, name, { parts: false, lower })) add("client_name", start, end);

  for (const re of [STREET, PO_BOX]) for (const m of text.matchAll(re)) add("street_address", m.index!, m.index! + m[0].length);
  for (const m of text.matchAll(EMAIL)) add("email_address", m.index!, m.index! + m[0].length);
  for (const re of [PHONE_GROUPED, PHONE_E164]) {
    for (const m of text.matchAll(re)) if (digitCount(m[0]) >= 7) add("phone_number", m.index!, m.index! + m[0].length);
  }
  for (const m of text.matchAll(PHONE_AFTER_WORD)) {
    const digits = digitCount(m[1]!);
    if (digits >= 7 && digits <= 15) add("phone_number", m.index! + m[0].length - m[1]!.length, m.index! + m[0].length);
  }
  for (const m of text.matchAll(SSN_FORMATTED)) if (isValidSsn(m[1]!, m[3]!, m[4]!)) add("ssn", m.index!, m.index! + m[0].length);
  for (const m of text.matchAll(SSN_BARE)) {
    if (isValidSsn(m[1]!, m[2]!, m[3]!) && containsSsn(text.slice(Math.max(0, m.index! - 40), m.index! + 29))) add("ssn", m.index!, m.index! + 9);
  }
  for (const m of text.matchAll(CARD_CANDIDATE)) {
    const digits = m[1]!.replace(/[ -]/g, "");
    if (cardIssuer(digits) && luhnValid(digits)) add("payment_card", m.index!, m.index! + m[0].length);
  }
  return mergeSpans(spans);
}

/** The name at the start of `candidate`, cut before the first word that is not one ("Jane Roe Disputes" → "Jane Roe"). */
function leadingName(candidate: string): string {
  const words = candidate.split(/(\s+)/);
  let end = 0;
  for (let i = 0; i < words.length; i += 2) {
    const word = words[i]!;
    if (NOT_NAMES.has(word.replace(/['’]s$/, "")) || (i > 0 && /^[A-Z]\.$/.test(word) && i === words.length - 1)) break;
    end = i + 1;
  }
  const name = words.slice(0, end).join("");
  // a possessive stays with the sentence: "customer Jane Roe's invoice" → "customer's invoice"
  return name.replace(/['’]s$/, "");
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Where `name` occurs as whole words, case-insensitively; with `parts`, also each word of a
 * several-word name on its own where it is capitalised (Jane Roe → "Roe called").
 */
function occurrences(text: string, name: string, opts: { parts: boolean; lower: string }): [number, number][] {
  const clean = name.replace(/\s+/g, " ").trim();
  const words = clean.split(" ");
  // most of a client's contacts are not in a given text: a plain search rules them out before any pattern is built
  if (clean.length < 3 || !words.some((w) => opts.lower.includes(w.toLowerCase()))) return [];
  const found: [number, number][] = [];
  const whole = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(clean).replace(/ /g, "\\s+")}(?![\\p{L}\\p{N}])`, "giu");
  for (const m of text.matchAll(whole)) found.push([m.index!, m.index! + m[0].length]);
  if (opts.parts) {
    for (const part of words) {
      if (part === clean || part.length < 3 || !/^\p{Lu}/u.test(part) || NOT_NAMES.has(part)) continue;
      const word = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(part)}(?![\\p{L}\\p{N}])`, "gu");
      for (const m of text.matchAll(word)) found.push([m.index!, m.index! + m[0].length]);
    }
  }
  return found;
}

const digitCount = (s: string) => s.replace(/\D/g, "").length;

/** Overlapping spans as one: the earliest start, the kind of the longest. */
function mergeSpans(spans: PersonalDataSpan[]): PersonalDataSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: PersonalDataSpan[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && s.start < last.end) {
      if (s.end - s.start > last.end - last.start) Object.assign(last, { kind: s.kind, introducedBy: s.introducedBy });
      last.end = Math.max(last.end, s.end);
    } else out.push({ ...s });
  }
  return out;
}

export const PERSONAL_DATA_LABELS: Record<PersonalDataKind, string> = {
  person_name: "a person's name",
  client_name: "the client's name",
  street_address: "a street address",
  phone_number: "a phone number",
  email_address: "an email address",
  ssn: "a social security number",
  payment_card: "a payment card number",
};

/** What a piece of personal data becomes in generalised text, unless it is simply left out. */
const GENERAL_TERM: Record<PersonalDataKind, string> = {
  person_name: "a customer",
  client_name: "the client",
  street_address: "an address",
  phone_number: "a phone number",
  email_address: "an email address",
  ssn: "a social security number",
  payment_card: "a card number",
};

// "at 12 Elm St", "on 555-123-4567", "to jane@example.com": the place or number goes with its preposition
const LEADING_PREPOSITION = /\s+(?:at|on|to|from|near|via)\s*$/i;
const LEFT_OUT_WITH_PREPOSITION = new Set<PersonalDataKind>(["street_address", "phone_number", "email_address"]);
const STARTS_WITH_ROLE = new RegExp(`^(?:${ROLE})\\b`);
const ENDS_WITH_ARTICLE = /\b(?:a|an|the)\s+$/i;

/**
 * A word before the data that already says what it is: "SSN 219-45-6781" → "SSN", "card 4111 …" →
 * "card"; after "call" or "email" the customer is who is meant ("call the customer").
 */
const SAID_BEFORE: Partial<Record<PersonalDataKind, { label: RegExp; term: string }[]>> = {
  ssn: [{ label: /\b(?:ssn|ss#|social security(?: number| no\.?)?)\W*$/i, term: "" }],
  payment_card: [{ label: /\b(?:card|cc)(?: number| no\.?)?\W*$/i, term: "" }],
  phone_number: [
    { label: /\b(?:call|text|sms|whatsapp|ring)\s+$/i, term: "the customer" },
    { label: /\b(?:phone|tel|telephone|mobile|cell)(?: number| no\.?)?\W*$/i, term: "" },
  ],
  email_address: [
    { label: /\b(?:e-?mail|write to|message)\s+$/i, term: "the customer" },
    { label: /\be-?mail(?: address)?:\s*$/i, term: "" },
  ],
};

export interface GeneralisedText {
  text: string;
  /** what was left out or generalised, one entry per kind, with how often */
  found: { kind: PersonalDataKind; count: number }[];
}

/**
 * `text` with the personal data `findPersonalData` finds left out or put in general terms: a name after
 * the role word that introduced it is dropped ("customer Jane Roe" → "customer"), one with a title or
 * on its own becomes "a customer", an address, phone number or email after "at"/"on"/"to"… is dropped
 * with it, anything else becomes its general term ("a phone number"). "customer Jane Roe at 12 Elm St
 * disputes invoice" → "A customer disputes invoice". Text without personal data comes back unchanged.
 */
export function generalisePersonalData(text: string, known: KnownIdentities = {}): GeneralisedText {
  const spans = findPersonalData(text, known);
  if (!spans.length) return { text, found: [] };
  let out = "";
  let at = 0;
  for (const s of spans) {
    let before = text.slice(at, s.start);
    let term = GENERAL_TERM[s.kind];
    let end = s.end;
    // "customer Jane Roe" → "customer"; "named Jane" goes altogether
    if (s.kind === "person_name" && (s.introducedBy === "role" || s.introducedBy === "named")) {
      term = "";
      // "the customer, Jane Roe, lives" → "the customer lives"
      if (/,\s*$/.test(before) && text.startsWith(",", s.end)) {
        before = before.replace(/,\s*$/, "");
        end += 1;
      }
    }
    const said = SAID_BEFORE[s.kind]?.find((l) => l.label.test(before));
    if (said) term = said.term;
    else if (LEFT_OUT_WITH_PREPOSITION.has(s.kind) && LEADING_PREPOSITION.test(before)) {
      before = before.replace(LEADING_PREPOSITION, "");
      term = "";
    }
    // "the Sunrise Plumbing link" → "the client link", not "the the client link"
    if (ENDS_WITH_ARTICLE.test(before)) term = term.replace(/^(?:a|an|the)\s+/, "");
    // a term at a sentence's start is capitalised
    out += before + (term && /(?:^|[.!?]\s+)$/.test(out + before) ? term[0]!.toUpperCase() + term.slice(1) : term);
    at = end;
  }
  out = tidy(out + text.slice(at));
  // "customer disputes invoice" reads as a sentence with its article
  if (STARTS_WITH_ROLE.test(out)) out = `A ${out[0]!.toLowerCase()}${out.slice(1)}`;
  const counts = new Map<PersonalDataKind, number>();
  for (const s of spans) counts.set(s.kind, (counts.get(s.kind) ?? 0) + 1);
  return { text: out, found: [...counts].map(([kind, count]) => ({ kind, count })) };
}

/** Spaces and punctuation as they read once words were taken out. */
function tidy(s: string): string {
  return s
    .replace(/[ \t]{2,}/g, " ")
    .replace(/[ \t]+([,.;:!?)]|['’]s\b)/g, "$1")
    .replace(/\(\s*\)/g, "")
    .replace(/,(\s*,)+/g, ",")
    .replace(/,\s*([.;:!?])/g, "$1")
    .replace(/^[\s,;:]+/, "")
    .replace(/[ \t]+$/gm, "")
    .replace(/^\p{Ll}/u, (c) => c.toUpperCase());
}
