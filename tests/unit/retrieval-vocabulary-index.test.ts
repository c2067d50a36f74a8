import { describe, expect, it } from "vitest";
import { classify } from "@/lib/retrieval/smart-trigger/classify";
import { compileVocabulary, type VocabularyTerm } from "@/lib/retrieval/smart-trigger/vocabulary";
import { candidateTerms, indexVocabulary } from "@/lib/retrieval/smart-trigger/vocabulary-index";

const vocabulary: VocabularyTerm[] = [
  { term: "Sybil", type: "agent" },
  { term: "Saber", type: "agent" },
  { term: "Sunrise Plumbing", type: "client" },
  { term: "water heater", type: "term" },
  { term: "drain cleaning", type: "term" },
  { term: "Maria Lopez", type: "contact" },
  { term: "Maria", type: "contact" },
  { term: "O'Brien", type: "contact" },
  { term: "#1 Roofing", type: "client" },
  { term: "Deploy Santos to Sunrise Plumbing", type: "mission" },
  ...Array.from({ length: 300 }, (_, i) => ({ term: `Contact${i} Person`, type: "contact" as const })),
];

const messages = [
  "Did Maria Lopez call back about the WATER-HEATER?",
  "maria's appointment moved",
  "Saber’s report is in",
  "Any update from Sunrise   Plumbing?",
  "Is the deploy santos to sunrise plumbing mission done?",
  "o'brien wants a quote",
  "#1 roofing called again",
  "Contact250 Person and contact251 person both asked",
  "Samantha called",
  "Sunrise came up",
  "Did Lopez pay the invoice?",
  "The Lopezes asked again",
  "what did lopez say",
  "Person asked about it",
  "thanks!",
  "",
];

describe("the vocabulary index", () => {
  const compiled = compileVocabulary(vocabulary, "Sybil");
  const index = indexVocabulary(compiled);

  it("classifies exactly as testing every term would", () => {
    for (const variant of ["internal", "field"] as const) {
      for (const message of messages) {
        expect(classify(message, { variant, compiled: candidateTerms(index, message) }), `${variant}: ${message}`).toEqual(
          classify(message, { variant, compiled }),
        );
      }
    }
  });

  it("finds a person by either of their names, capitalised, and only them", () => {
    const names = (m: string) => classify(m, { variant: "field", compiled: candidateTerms(index, m) }).triggers.filter((t) => t.kind === "name");
    expect(names("Did Lopez pay the invoice?")).toEqual([{ kind: "name", match: "Maria Lopez" }]);
    expect(names("The Lopezs' garage is done")).toEqual([{ kind: "name", match: "Maria Lopez" }]);
    // lower case, a single name is too often an ordinary word; the whole name still counts
    expect(names("what did lopez say")).toEqual([]);
    expect(names("what did maria lopez say")).toEqual([
      { kind: "name", match: "Maria Lopez" },
      { kind: "name", match: "Maria" },
    ]);
  });

  it("tests only the terms whose key words occur in the message", () => {
    const picked = candidateTerms(index, "Did Maria Lopez call back about the water heater?").map((e) => e.term.term);
    expect(picked).toEqual(["water heater", "Maria Lopez", "Maria", "#1 Roofing"]);
    expect(candidateTerms(index, "hello there").map((e) => e.term.term)).toEqual(["#1 Roofing"]);
  });
});
