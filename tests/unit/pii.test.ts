import { describe, expect, it } from "vitest";
import { cardIssuer, containsSsn, describePii, detectPii, findPaymentCards, findPersonalData, generalisePersonalData, isValidSsn, luhnValid } from "@/lib/review/pii";

const kinds = (key: string, value: string) => detectPii({ key, value }).map((f) => `${f.kind}:${f.field}`);

describe("SSN detection", () => {
  it.each([
    ["219-45-6781", "formatted with dashes"],
    ["219 45 6781", "formatted with spaces"],
    ["SSN: 219-45-6781", "with a label"],
    ["ssn 219456781", "bare, after 'ssn'"],
    ["Social Security number 078051121", "bare, after 'social security'"],
    ["her SS# is 523456789", "bare, after 'SS#'"],
    ["219456781 (soc sec)", "bare, context after the number"],
    ["Customer ID 001-01-0001 verified", "the lowest valid number"],
  ])("flags %s (%s)", (text) => {
    expect(containsSsn(text)).toBe(true);
    expect(kinds("notes", text)).toContain("ssn:value");
  });

  it.each([
    ["000-12-3456", "area 000 is never issued"],
    ["666-12-3456", "area 666 is never issued"],
    ["912-34-5678", "areas 900–999 are never issued (ITINs)"],
    ["987-65-4321", "the advertising range 987-65-43xx is in 9xx"],
    ["123-00-4567", "group 00 is never issued"],
    ["123-45-0000", "serial 0000 is never issued"],
    ["ssn 000456789", "bare with context but area 000"],
    ["Order 219456781 shipped", "bare nine digits without a context word"],
    ["Zip 33801-1234", "a zip+4 code"],
    ["call 863-337-3705", "a phone number (3-3-4, not 3-2-4)"],
    ["219-45-67810", "part of a longer number"],
    ["2019-11-21", "a date"],
  ])("does not flag %s (%s)", (text) => {
    expect(containsSsn(text)).toBe(false);
    expect(kinds("notes", text)).not.toContain("ssn:value");
  });

  it("flags a bare number when the key itself names the SSN, and flags such keys whatever the value", () => {
    expect(kinds("ssn", "219456781")).toEqual(expect.arrayContaining(["ssn:key", "ssn:value"]));
    expect(kinds("social_security_number", "on file")).toEqual(["ssn:key"]);
    expect(kinds("socialSecurity", "provided")).toEqual(["ssn:key"]);
  });

  it("validates area, group and serial", () => {
    expect(isValidSsn("219", "45", "6781")).toBe(true);
    expect(isValidSsn("899", "99", "9999")).toBe(true);
    expect(isValidSsn("900", "45", "6781")).toBe(false);
    expect(isValidSsn("21", "45", "6781")).toBe(false);
  });
});

describe("payment card detection", () => {
  // the networks' published test numbers: prefix, length and Luhn all valid
  const valid: [string, string][] = [
    ["4111111111111111", "visa"],
    ["4012888888881881", "visa"],
    ["4222222222222", "visa"],
    ["5555555555554444", "mastercard"],
    ["5105105105105100", "mastercard"],
    ["2221000000000009", "mastercard"],
    ["2223003122003222", "mastercard"],
    ["378282246310005", "amex"],
    ["371449635398431", "amex"],
    ["6011111111111117", "discover"],
    ["6445644564456445", "discover"],
    ["30569309025904", "diners"],
    ["38520000023237", "diners"],
    ["3530111333300000", "jcb"],
    ["3566002020360505", "jcb"],
    ["6200000000000005", "unionpay"],
    ["6759649826438453", "maestro"],
    ["5018000000000009", "maestro"],
  ];

  it.each(valid)("flags %s (%s), plain, spaced and dashed", (number, issuer) => {
    expect(cardIssuer(number)).toBe(issuer);
    expect(luhnValid(number)).toBe(true);
    const spaced = number.replace(/(\d{4})(?=\d)/g, "$1 ");
    const dashed = number.replace(/(\d{4})(?=\d)/g, "$1-");
    for (const text of [number, `card ${spaced} exp 09/29`, `paid with ${dashed}.`]) {
      expect(findPaymentCards(text), text).toEqual([issuer]);
    }
    expect(detectPii({ key: "billing", value: `card ${spaced}` })).toEqual([{ kind: "payment_card", field: "value", detail: issuer }]);
  });

  it.each(valid)("does not flag %s (%s) with a wrong check digit", (number) => {
    const wrong = number.slice(0, -1) + String((Number(number.at(-1)) + 1) % 10);
    expect(luhnValid(wrong)).toBe(false);
    expect(findPaymentCards(wrong)).toEqual([]);
  });

  it.each([
    ["1700000000000", "a 13-digit millisecond timestamp"],
    ["1732190400123", "another millisecond timestamp"],
    ["1732190400123456", "a microsecond timestamp"],
    ["+1 863 337 3705", "a US phone number"],
    ["+49 1512 3456789", "a German mobile number whose digits pass Luhn with a Visa prefix"],
    ["0049 1512 3456789", "the same number with 00"],
    ["+44 20 7946 0958", "a UK number"],
    ["978-3-16-148410-0", "an ISBN-13"],
    ["Order 1002003004005006", "an order number without an issuer prefix"],
    ["Invoice 9400123456789012", "a number starting with 9"],
    ["4111111111111112", "a Visa-like number failing Luhn"],
    ["4111 1111 1111 1111 1111 1111", "too many digits (24)"],
    ["4111 1111 11", "too few digits"],
  ])("does not flag %s (%s)", (text) => {
    expect(findPaymentCards(text)).toEqual([]);
  });

  it("checks that the +49 case would pass Luhn and prefix on its own (so the phone rule is what saves it)", () => {
    expect(cardIssuer("4915123456787")).toBe("visa");
    expect(luhnValid("4915123456787")).toBe(true);
    expect(findPaymentCards("+49 1512 3456787")).toEqual([]);
  });

  it("finds every card in a text, and flags a long number under a card-named key even when its checksum fails", () => {
    expect(findPaymentCards("old 4111 1111 1111 1111, new 5555-5555-5555-4444")).toEqual(["visa", "mastercard"]);
    expect(kinds("credit_card_number", "4111 1111 1111 1112")).toEqual(["payment_card:value"]);
    expect(kinds("credit_card", "Visa ending 4242")).toEqual([]);
  });
});

describe("what a refusal says", () => {
  it("a key that names sensitive data asks for it; a value or a field contains it", () => {
    expect(detectPii({ key: "ssn", value: "on file" }).map(describePii)).toEqual(["The key asks for a social security number, which is never stored"]);
    expect(detectPii({ key: "card", value: "4111 1111 1111 1111" }).map(describePii)).toEqual(["The value contains a payment card number (visa); it is never stored"]);
    expect(describePii({ kind: "ssn", field: "tags[1]" })).toBe("The tags[1] contains a social security number; it is never stored");
  });
});

describe("sensitive topics", () => {
  it.each([
    ["health", "yes", "health:key"],
    ["medical_history", "none", "health:key"],
    ["medications", "none", "health:key"],
    ["notes", "Diagnosed with type 2 diabetes", "health:value"],
    ["notes", "She is pregnant, due in May", "health:value"],
    ["notes", "Recovering from surgery, call after the 10th", "health:value"],
    ["notes", "Has health issues, prefers short calls", "health:value"],
    ["notes", "Mentioned his depression", "health:value"],
    ["religion", "Catholic", "religion:key"],
    ["faith", "n/a", "religion:key"],
    ["notes", "Goes to church on Sunday mornings", "religion:value"],
    ["notes", "Observes Ramadan, no calls at sunset", "religion:value"],
    ["notes", "He is Jewish", "religion:value"],
    ["political_affiliation", "independent", "politics:key"],
    ["voting", "yes", "politics:key"],
    ["notes", "Registered Democrat", "politics:value"],
    ["notes", "Big MAGA supporter", "politics:value"],
    ["notes", "Voted for the school levy", "politics:value"],
    ["notes", "Is blind", "health:value"],
    ["notes", "Uses a wheelchair", "health:value"],
    ["notes", "Broke his leg last month", "health:value"],
    ["notes", "Uses a hearing aid", "health:value"],
    ["notes", "Has a back injury", "health:value"],
    ["notes", "Is a Quaker", "religion:value"],
    ["notes", "Member of the Green Party", "politics:value"],
    ["notes", "Tea Party member", "politics:value"],
    ["notes", "NRA member", "politics:value"],
    ["notes", "Supports Black Lives Matter", "politics:value"],
    ["notes", "Votes Green", "politics:value"],
  ])("flags %s = %s as %s", (key, value, expected) => {
    expect(kinds(key, value)).toContain(expected);
  });

  it.each([
    ["website_health", "health check passed"],
    ["site_health_score", "98"],
    ["notes", "System health is green after the migration"],
    ["notes", "Healthy pipeline, 12 open deals"],
    ["party_size", "6"],
    ["notes", "Gave a conservative estimate of $5,000"],
    ["notes", "Likes our liberal return policy"],
    ["notes", "Prefers texts after 5pm"],
    ["notes", "Water heater is 12 years old"],
    ["stroke_count", "2"],
    ["notes", "Needs an appointment for Tuesday"],
    ["notes", "Party of 6 for the birthday party"],
    ["notes", "Wants the third party plumber"],
    ["notes", "Prefers the green party room"],
    ["notes", "Customer is an injury lawyer"],
    ["notes", "Installed window blinds"],
    ["notes", "Works for a wheelchair ramp company"],
  ])("does not flag %s = %s", (key, value) => {
    expect(kinds(key, value)).toEqual([]);
  });

  it("never returns the matched text in a finding", () => {
    const findings = detectPii({ key: "notes", value: "SSN 219-45-6781, card 4111 1111 1111 1111, diabetic" });
    expect(JSON.stringify(findings)).not.toMatch(/219|4111|diabet/);
    expect(findings.map((f) => f.kind).sort()).toEqual(["health", "payment_card", "ssn"]);
  });
});

describe("personal data in free text (what an escalation's published entry leaves out)", () => {
  const known = { names: ["Jane Roe", "Marcus Webb"], clientNames: ["Sunrise Plumbing", "sunrise-plumbing"] };
  const general = (text: string) => generalisePersonalData(text, known).text;

  it.each([
    ["customer Jane Roe at 12 Elm St disputes invoice", "A customer disputes invoice"],
    ["Customer Jane Roe's invoice at 12 Elm St, Springfield, IL 62704 is wrong", "A customer's invoice is wrong"],
    ["The customer, Jane Roe, lives at 400 N. Main Street Apt 4B", "The customer lives"],
    ["Mrs. Roe called from (555) 123-4567 about her refund", "A customer called about her refund"],
    ["A caller named Dana wants a callback on +1 555 123 4567", "A caller wants a callback"],
    ["Webb says the Sunrise Plumbing booking link fails", "A customer says the client booking link fails"],
    ["call 5551234567 after 5pm, or email dana.k@example.com", "Call the customer after 5pm, or email the customer"],
    ["card 4111 1111 1111 1111 was charged twice, SSN 219-45-6781 on file", "Card was charged twice, SSN on file"],
    ["tenant O'Brien at PO Box 12 wants a key", "A tenant wants a key"],
    ["call him on 555-201-3344 (ref 51ab) or mobile 0612 345 678", "Call him (ref 51ab) or mobile"],
  ])("%s → %s", (text, expected) => {
    expect(general(text)).toBe(expected);
  });

  it.each([
    "The booking link in our SMS replies returns a 404 page for customers",
    "Customer Support portal is down since 2024-01-15; order 2024-001234 stuck",
    "Re-authorise the telephony integration under Settings → Integrations; the token expired.",
    "Customers of Greenleaf cannot open the invoice payment link",
    "Upgrade to version 2.3.4 fixes it; see ticket 12345678 and call back at 10:30",
    "The Booking Link Fails On Mobile",
    "Payment links expire after 7 days: generate a fresh link and resend it.",
  ])("leaves %s as it is", (text) => {
    expect(findPersonalData(text, known)).toEqual([]);
    expect(general(text)).toBe(text);
  });

  it("says what it found, by kind, never the text", () => {
    const g = generalisePersonalData("customer Jane Roe at 12 Elm St, call 555-123-4567 or 555-987-6543", known);
    expect(g.found).toEqual([
      { kind: "person_name", count: 1 },
      { kind: "street_address", count: 1 },
      { kind: "phone_number", count: 2 },
    ]);
    expect(JSON.stringify(g.found)).not.toMatch(/Jane|Elm|555/);
  });

  it("finds a known name on its own, and each part of it where it is capitalised", () => {
    expect(general("jane roe emailed twice")).toBe("A customer emailed twice");
    expect(general("Roe emailed twice")).toBe("A customer emailed twice");
    // a word of a name that is also an ordinary word, written as one, stays
    expect(generalisePersonalData("the roe deer", { names: ["Jane Roe"] }).text).toBe("the roe deer");
  });
});
