/**
 * PII detection for memory suggestions and facts ("Never store: SSN, credit cards,
 * health, religion, politics"). Pure functions, no I/O.
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
  /** where it was found */
  field: "key" | "value";
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
  return `The ${f.field} contains ${PII_LABELS[f.kind]}${issuer}; it is never stored`;
}
