/**
 * Whether a proposed fact would set or contradict a locked constant (prices, guarantees,
 * compliance rules, escalation numbers, booking links; "Agents CANNOT self-edit"). Pure functions.
 *
 * Two tests, both explainable to the person reading the refusal:
 * - The key names a constant: its words cover the constant's key ("pricing.starter",
 *   "starter_price"), or they all come from the constant's key and label and at least one of them
 *   is specific ("booking_link", "escalation_number", "refund_policy", "price"). Generic words
 *   alone ("phone", "plan", "email") name no constant, so a contact's phone number is fine.
 * - The value contradicts one: it talks about the constant's subject and states a different
 *   amount, number, link or duration ("the Starter plan is $500", "escalate to (555) 010-0000",
 *   "book at calendly.com/x", "a 60-day guarantee", "no refunds"), or sets a compliance rule aside
 *   on its subject ("TCPA does not apply", "ignore STOP replies"). Restating the locked value is
 *   not a contradiction.
 */

export interface LockedConstantLike {
  key: string;
  label: string;
  value: string;
  category: string;
}

export interface LockedConflict {
  constantKey: string;
  label: string;
  /** "key": the suggestion would set the constant; "value": it contradicts it */
  via: "key" | "value";
  message: string;
}

const SYNONYMS: Record<string, string> = {
  pricing: "price", prices: "price", priced: "price", cost: "price", costs: "price", fee: "price", fees: "price",
  number: "phone", tel: "phone", telephone: "phone", phones: "phone",
  url: "link", links: "link",
  guarantees: "guarantee", guaranteed: "guarantee", refunds: "refund",
  escalate: "escalation", escalations: "escalation",
  book: "booking", bookings: "booking",
  results: "result",
};

// words that never identify a constant on their own
const GENERIC = new Set([
  "phone", "email", "link", "plan", "plans", "call", "policy", "day", "days", "time", "name", "contact",
  "customer", "preferred", "the", "a", "an", "of", "for", "and", "to", "on", "in", "our", "value", "info",
]);

export function normalizeTokens(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((t) => SYNONYMS[t] ?? t);
}

const isSpecific = (t: string) => !GENERIC.has(t) && !/^\d+$/.test(t);

/** Whether a fact key names the constant (would set it). */
export function keyNamesConstant(key: string, constant: LockedConstantLike): boolean {
  const kt = normalizeTokens(key);
  if (kt.length === 0) return false;
  const ct = normalizeTokens(constant.key);
  const known = new Set([...ct, ...normalizeTokens(constant.label)]);
  if (ct.every((t) => kt.includes(t))) return true;
  return kt.every((t) => known.has(t)) && kt.some(isSpecific);
}

// ── value extractors ─────────────────────────────────────────────────────────────────────────────

const MONEY = /\$\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{2})?|\b(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{2})?\s?(?:dollars|usd)\b/gi;
const PHONE = /(?<!\d)(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}(?!\d)/g;
const URL = /\b(?:https?:\/\/)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?:\/[^\s,;)]*)?/gi;
const DURATION = /\b(\d+)[\s-]?(day|week|month|year)s?\b/gi;

const amounts = (text: string) =>
  [...text.matchAll(MONEY)].map((m) => Number((m[1] ?? m[2] ?? "").replace(/,/g, ""))).filter((n) => Number.isFinite(n));
const phoneDigits = (text: string) => [...text.matchAll(PHONE)].map((m) => m[0].replace(/\D/g, "").replace(/^1(?=\d{10}$)/, ""));
const urls = (text: string) =>
  [...text.matchAll(URL)]
    .map((m) => m[0].toLowerCase().replace(/^https?:\/\//, "").replace(/^www\./, "").replace(/[/.]+$/, ""))
    // an email address is not a link
    .filter((u, i, all) => all.indexOf(u) === i);
const durations = (text: string) => [...text.matchAll(DURATION)].map((m) => `${m[1]} ${m[2]!.toLowerCase()}`);

/** The words of the constant that name its subject: "starter" for pricing.starter, "discovery"… */
function subjectWords(constant: LockedConstantLike): string[] {
  return [...new Set([...normalizeTokens(constant.key), ...normalizeTokens(constant.label)])].filter(
    (t) => isSpecific(t) && !["price", "guarantee", "escalation", "booking", "compliance", "other"].includes(t),
  );
}

const mentions = (text: string, words: string[]) => {
  const tokens = new Set(normalizeTokens(text));
  return words.some((w) => tokens.has(w));
};

/** Whether a fact value states something different from the constant on the constant's subject. */
export function valueContradictsConstant(value: string, constant: LockedConstantLike, all: LockedConstantLike[] = [constant]): boolean {
  switch (constant.category) {
    case "pricing": {
      const subject = subjectWords(constant);
      if (subject.length === 0 || !mentions(value, subject)) return false;
      const locked = new Set(amounts(constant.value));
      return amounts(value).some((a) => !locked.has(a));
    }
    case "escalation": {
      if (!/\bescalat/i.test(value)) return false;
      const locked = new Set(phoneDigits(constant.value));
      if (locked.size === 0) return false;
      return phoneDigits(value).some((d) => !locked.has(d));
    }
    case "booking": {
      if (!/\b(?:book|booking|schedul\w*|appointment|discovery call|calendar)\b/i.test(value)) return false;
      const locked = new Set(urls(constant.value));
      if (locked.size === 0) return false;
      const emails = new Set([...value.matchAll(/[^\s@]+@([^\s@]+)/g)].map((m) => m[1]!.toLowerCase()));
      return urls(value).some((u) => !locked.has(u) && !emails.has(u));
    }
    case "guarantee": {
      if (!/\b(?:guarantee\w*|refund\w*|money[- ]back)\b/i.test(value)) return false;
      if (/\b(?:no|without|never)\s+(?:a\s+)?(?:guarantee|refunds?|money[- ]back)\b/i.test(value)) return true;
      const lockedDurations = new Set(all.filter((c) => c.category === "guarantee").flatMap((c) => durations(c.value + " " + c.label + " " + c.key)));
      return durations(value).some((d) => !lockedDurations.has(d));
    }
    case "compliance": {
      // a rule is contradicted by a statement that sets it aside on its subject: "TCPA does not apply",
      // "no consent needed", "ignore STOP replies, keep texting"
      if (!OVERRIDE.test(value)) return false;
      const subject = [...subjectWords(constant), ...ruleWords(constant.value)];
      return subject.length > 0 && mentions(value, subject);
    }
    default:
      return false;
  }
}

/** Words that set a rule aside. */
const OVERRIDE = new RegExp(
  "\\b(?:" +
    [
      "do(?:es)?(?: not|n'?t) apply",
      "not appl(?:y|icable)",
      "(?:is|are) not (?:needed|required|necessary)",
      "no (?:need|consent|opt[- ]?in|unsubscribe)",
      "(?:not|never) (?:needed|required|necessary)",
      "without (?:\\w+ )?consent",
      "ignor(?:e|es|ed|ing)",
      "skip(?:s|ped|ping)?",
      "bypass(?:es|ed|ing)?",
      "exempt(?:ed)?",
      "waiv(?:e|es|ed)",
      "overrid(?:e|es|den)",
      "keep (?:texting|calling|emailing|messaging)",
      "don'?t (?:need|include|honou?r|bother)",
      "remove the unsubscribe",
    ].join("|") +
    ")\\b",
  "i",
);

// the words of a rule's text that say what it is about ("consent", "stop", "unsubscribe"), not how
const RULE_FILLER = new Set([
  "only", "every", "each", "who", "whom", "gave", "give", "have", "has", "with", "from", "that", "this", "their",
  "once", "must", "should", "always", "never", "contacts", "contact", "carries", "carry", "working", "express", "written", "text", "call",
  "address", "honour", "honor", "sender",
]);
const ruleWords = (text: string) => [...new Set(normalizeTokens(text))].filter((t) => t.length >= 4 && isSpecific(t) && !RULE_FILLER.has(t));

/** Every locked constant the key/value pair would set or contradict. */
export function findLockedConstantConflicts(input: { key: string; value: string }, constants: readonly LockedConstantLike[]): LockedConflict[] {
  const conflicts: LockedConflict[] = [];
  for (const c of constants) {
    if (keyNamesConstant(input.key, c)) {
      conflicts.push({
        constantKey: c.key,
        label: c.label,
        via: "key",
        message: `"${input.key}" would set the locked constant "${c.label}" (${c.key}); only HQ admins change it, in the console`,
      });
    } else if (valueContradictsConstant(input.value, c, [...constants])) {
      conflicts.push({
        constantKey: c.key,
        label: c.label,
        via: "value",
        message: `The value contradicts the locked constant "${c.label}" (${c.key}: ${c.value})`,
      });
    }
  }
  return conflicts;
}
