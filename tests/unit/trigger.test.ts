import { describe, expect, it } from "vitest";
import { classify } from "@/lib/retrieval/smart-trigger/classify";
import { normalizeMessage } from "@/lib/retrieval/smart-trigger/text";
import type { VocabularyTerm } from "@/lib/retrieval/smart-trigger/vocabulary";

const internalVocab: VocabularyTerm[] = [
  { term: "Sybil", type: "agent" },
  { term: "Saber", type: "agent" },
  { term: "Sam", type: "agent" },
  { term: "Vulkn", type: "client" },
  { term: "investing project", type: "mission" },
];
const fieldVocab: VocabularyTerm[] = [
  { term: "Sunrise Plumbing", type: "client" },
  { term: "water heater", type: "term" },
  { term: "Maria Lopez", type: "contact" },
];

const internal = (m: string) => classify(m, { variant: "internal", vocabulary: internalVocab, selfName: "Sybil" });
const field = (m: string) => classify(m, { variant: "field", vocabulary: fieldVocab, selfName: "Santos" });

describe("smart trigger — internal agents (decision, past, planning and correction patterns)", () => {
  it.each([
    // decision language
    ["Should we move the backtest to next week?", "decision", "local"],
    ["I think we should publish the principles first", "decision", "local"],
    ["Let's log every trade decision from now on", "decision", "local"],
    // past references
    ["Remember when the funding-rate signal fired early?", "past_reference", "local"],
    ["Last time we tried this it failed", "past_reference", "local"],
    ["Didn't we already agree on weekly reports?", "past_reference", "local"],
    // planning / strategy
    ["What are the next steps for the memory rollout?", "planning", "local"],
    ["Draft the implementation order for phase 2", "planning", "local"],
    ["Update our roadmap with the Q3 goals", "planning", "shared"],
    // corrections
    ["Actually, the deadline moved to Friday", "correction", "local"],
    ["That's not right, the price changed", "correction", "local"],
    ["But the client asked for email only", "correction", "local"],
    // how-to
    ["How do I register a new cron job?", "how_to", "local"],
    ["What's the process for onboarding a client?", "how_to", "local"],
  ])("%s → %s (%s)", (message, kind, level) => {
    const r = internal(message);
    expect(r.triggers.map((t) => t.kind)).toContain(kind);
    expect(r.level).toBe(level);
  });

  it("treats names of other agents, clients and shared projects as shared context", () => {
    expect(internal("Saber posted the numbers")).toMatchObject({ level: "shared", triggers: [{ kind: "name", match: "Saber" }] });
    expect(internal("Any update from Vulkn?").level).toBe("shared");
    expect(internal("Where is the investing project at?").level).toBe("shared");
    expect(internal("Saber's report is in").triggers).toEqual([{ kind: "name", match: "Saber" }]);
    // its own name is not a reference to someone else, and names match whole words only
    expect(internal("Sybil here, status update").level).toBe("none");
    expect(internal("Samantha called").level).toBe("none");
  });

  it("handles case, punctuation, curly apostrophes and spelled-out contractions", () => {
    for (const m of ["DIDN’T WE TRY THIS?", "did not we try this", "didnt we try this", "Didn't we... try this!!"]) {
      expect(internal(m).triggers.map((t) => t.kind)).toContain("past_reference");
    }
    expect(internal("let us decide on the vendor").triggers.map((t) => t.kind)).toContain("decision");
    expect(internal("what is the process for refunds").triggers.map((t) => t.kind)).toContain("how_to");
    expect(internal("That is not right.").triggers.map((t) => t.kind)).toContain("correction");
    expect(normalizeMessage("You are   WRONG")).toBe("you're wrong");
  });

  it("paraphrases land on their level", () => {
    // decisions and past references in the first person plural: the agent's own memory first
    expect(internal("do you remember what we decided about pricing?").level).toBe("local");
    expect(internal("what did we agree with the designer?").level).toBe("local");
    expect(internal("we need to decide on the hosting provider").level).toBe("local");
    // …and the shared knowledge once the team, another agent or a shared project is named
    expect(internal("do you remember what the team decided about pricing?").level).toBe("shared");
    expect(internal("what did we agree with Saber about the designer?").level).toBe("shared");
    expect(internal("how should I structure the weekly report?").level).toBe("local");
    expect(internal("to clarify, I meant the other dataset").level).toBe("local");
  });
});

describe("smart trigger — field agents (how-to, error, escalation and tool patterns)", () => {
  it.each([
    ["How do I send an invoice?", "procedural"],
    ["how should I reply to a refund request", "procedural"],
    ["What's the process for rescheduling a job?", "procedural"],
    ["Is there a template for a follow-up email?", "procedural"],
    ["Is there a standard procedure for no-shows?", "procedural"],
    ["I got an error when booking", "error"],
    ["The calendar sync failed again", "error"],
    ["The booking link is broken", "error"],
    ["SMS is not working", "error"],
    ["Something went wrong with the payment", "error"],
    ["I can't figure out the reminder settings", "error"],
    ["Can I do this discount for them?", "scope"],
    ["Is this something I handle or HQ?", "scope"],
    ["Should I be doing the quotes myself?", "scope"],
    ["This feels outside my scope", "scope"],
    ["Am I allowed to promise same-day service?", "scope"],
    ["Should I escalate this complaint?", "escalation"],
    ["Is this urgent?", "escalation"],
    ["Do I need to tell someone about the leak report?", "escalation"],
    ["I'll contact HQ about it", "escalation"],
    ["How does the scheduler work?", "tool"],
    ["I've never used this before", "tool"],
    ["What skill do I use for quotes?", "tool"],
  ])("%s → hq (%s)", (message, kind) => {
    const r = field(message);
    expect(r.level).toBe("hq");
    expect(r.triggers.map((t) => t.kind)).toContain(kind);
  });

  it("sends references to past client work, preferences and corrections to local memory", () => {
    expect(field("Remember when Maria Lopez asked for mornings only?").level).toBe("local");
    expect(field("Last time we serviced her water heater it took two hours").level).toBe("local");
    expect(field("Actually, she prefers text messages").level).toBe("local");
    expect(field("Any notes on Sunrise Plumbing's holiday hours").level).toBe("local");
  });

  it("has no shared level and never knows internal team names", () => {
    const r = field("Should we ask Saber and Sybil about Vulkn?");
    expect(r.level).not.toBe("shared");
    expect(r.triggers.filter((t) => t.kind === "name")).toEqual([]);
  });
});

describe("smart trigger — paraphrases of one need land on one rule", () => {
  it.each([
    // first-person variants and contractions of "never used this before"
    ["I've never used the tax export", "field", "hq"],
    ["i have not used the tax export yet", "field", "hq"],
    ["Ive not tried the export before", "field", "hq"],
    ["I haven't been to this street before", "field", "local"],
    ["I have never written the quarterly memo myself", "internal", "local"],
    // commitments, agreements and promises
    ["did I promise Sam a call back?", "internal", "shared"],
    ["What did we agree on with the landlord?", "internal", "local"],
    ["what was our agreement about the deposit", "internal", "local"],
    ["I gave my word the report would be early", "internal", "local"],
    ["Did we commit to Friday?", "field", "local"],
    ["she says we'd told her it was free", "field", "local"],
    // questions about past events
    ["When did the last shipment arrive?", "internal", "local"],
    ["what happened with the refund", "field", "local"],
    ["How did the interview go?", "internal", "local"],
    ["Did the plumber ever show up?", "field", "local"],
    // named people and contacts
    ["Did Maria Lopez leave a review?", "field", "local"],
    ["Mrs. Alvarez is asking for the usual slot", "field", "local"],
    ["Loop in Priyanka on the budget", "internal", "local"],
  ] as const)("%s (%s) → %s", (message, variant, level) => {
    const r = variant === "internal" ? internal(message) : field(message);
    expect(r.level).toBe(level);
  });

  it("reads the request, not the text it is asked to work on", async () => {
    const { requestPart } = await import("@/lib/retrieval/smart-trigger/text");
    expect(requestPart('translate "did we agree last week?" into german')).toBe("translate into german");
    expect(requestPart("rewrite this: remember when we promised a refund")).toBe("rewrite this");
    expect(internal('Translate "didn\'t we agree last week?" into German').level).toBe("none");
    expect(field("Proofread: the technician has already been to your home before").level).toBe("none");
    // …while a plain question with a colon keeps its words
    expect(internal("Correction: the launch moved to May").level).toBe("local");
  });

  it("hears unknown names only from an internal agent, next to a person's verb or after a title", () => {
    expect(internal("Ask Kofi for the figures").triggers).toContainEqual({ kind: "name", match: "Kofi" });
    expect(internal("Convert 72 Fahrenheit to Celsius").level).toBe("none");
    expect(internal("Send the invoice on Monday").level).toBe("none");
    // a field agent never guesses at names outside its client's data
    expect(field("Ask Kofi for the figures").level).toBe("none");
    expect(field("Mr. Kofi Mensah wants the invoice").triggers).toContainEqual({ kind: "name", match: "Mr. Kofi" });
  });
});

describe("casual messages stay none", () => {
  it.each([
    "hi",
    "Hello!",
    "hey there",
    "Thanks!",
    "thank you so much",
    "ok",
    "Okay, sounds good",
    "Good morning :)",
    "got it, thanks",
    "Cheers Sam",
    "👍",
    "Can you send me the file?",
    "Please book Tuesday at 3pm",
    "Write a short tweet about spring cleaning",
    "Summarize this paragraph",
    "The weather is nice today",
    "",
  ])("%j", (message) => {
    expect(internal(message)).toEqual({ level: "none", triggers: [] });
    expect(field(message).level).toBe("none");
  });
});

describe("a pleasantry before a word that triggers on its own is not small talk", () => {
  it.each([
    ["Hi, urgent!", "hq"],
    ["Hello, emergency!", "hq"],
    ["ok error", "hq"],
    ["Thanks. Failed.", "hq"],
  ])("%j is %s for a field agent", (message, level) => {
    expect(field(message).level).toBe(level);
    expect(field(message).level).toBe(field(message.replace(/^\W*\w+\W*/, "")).level);
  });

  it("and a name after it still is (Thanks Sam!)", () => {
    expect(internal("Thanks Sam!")).toEqual({ level: "none", triggers: [] });
    expect(internal("Cheers, Dana")).toEqual({ level: "none", triggers: [] });
  });
});

describe("smart trigger cost", () => {
  it("classifies a mixed batch of messages with a compiled vocabulary", async () => {
    const { compileVocabulary } = await import("@/lib/retrieval/smart-trigger/vocabulary");
    const compiled = compileVocabulary(
      Array.from({ length: 200 }, (_, i) => ({ term: `Contact Person${i}`, type: "contact" as const })),
    );
    const r = classify("Did Contact Person150 call back about the leak?", { variant: "field", compiled });
    expect(r.level).toBe("local");
    // the whole name, not the 199 other people whose first name is "Contact"
    expect(r.triggers.filter((t) => t.kind === "name")).toEqual([{ kind: "name", match: "Contact Person150" }]);
  });
});

describe("smart trigger — people in the agent's own memory", () => {
  const people: VocabularyTerm[] = [...internalVocab, { term: "Dana", type: "person" }, { term: "Marco Rossi", type: "person" }, { term: "Will", type: "person" }];
  const ask = (m: string, variant: "internal" | "field" = "internal") =>
    classify(m, { variant, vocabulary: variant === "internal" ? people : [...fieldVocab, { term: "Dana", type: "person" }], selfName: "Sybil" });

  it.each([
    ["When is Dana moving?", "internal"],
    ["What does Marco's daughter play?", "internal"],
    ["did Rossi ever pay back the loan?", "internal"],
    ["Is Dana still at the bakery?", "field"],
  ] as const)("a question about someone it knows needs its memory: %s", (message, variant) => {
    const r = ask(message, variant);
    expect(r.level).toBe("local");
    expect(r.triggers.some((t) => t.kind === "name")).toBe(true);
  });

  it("matches a person only when the name is written as a name", () => {
    expect(ask("I will write a poem about the sea").level).toBe("none");
    expect(ask("Ask Will about the sea").triggers).toContainEqual({ kind: "name", match: "Will" });
  });

  it("keeps pleasantries with a name at none, and a person never makes a message shared", () => {
    expect(ask("Thanks Dana!").level).toBe("none");
    expect(ask("Should we invite Dana to the dinner?").level).toBe("local");
    expect(ask("Should we invite Dana and Saber to the dinner?").level).toBe("shared");
  });

  it.each([
    ["What did Dana's team decide about the renewal?", "local"],
    ["what did dana’s team decide about the renewal?", "local"],
    ["Did Marco say what his team decided?", "local"],
    // the team itself, the caller's own, or a teammate's team is the team's knowledge
    ["What did the team decide about the renewal?", "shared"],
    ["What did your team decide about the renewal?", "shared"],
    ["What did the team's lead decide about the renewal?", "shared"],
    ["What did Saber's team decide about the renewal?", "shared"],
    ["What did Vulkn's team decide about the renewal?", "shared"],
  ] as const)("counts the team only when it is the caller's own, not a person's or a client's: %s → %s", (message, level) => {
    expect(ask(message).level).toBe(level);
  });

  it("names a shared project by its head noun", () => {
    expect(ask("How's the project going?").level).toBe("shared");
  });
});

describe("smart trigger — names the agent's conversations mention", () => {
  const vocabulary: VocabularyTerm[] = [...internalVocab, { term: "Max", type: "mention" }, { term: "Woodhaven", type: "mention" }];
  const ask = (m: string) => classify(m, { variant: "internal", vocabulary, selfName: "Sybil" });

  it.each(["How is Max doing?", "Did you ever go back to Woodhaven?", "what did the vet say about Max's leg", "Any news from 'Max' today?", "So, Max is better?"])(
    "hears a name inside a sentence, as it was heard: %s",
    (message) => {
      const r = ask(message);
      expect(r.level).toBe("local");
      expect(r.triggers.some((t) => t.kind === "name")).toBe(true);
    },
  );

  it("not where a sentence starts, nor written in lower case: there it is as likely an everyday word", () => {
    expect(ask("Max out the budget for the ads").level).toBe("none");
    expect(ask("Sounds good. Max volume tonight").level).toBe("none");
    expect(ask("turn it up to max").level).toBe("none");
  });

  it("never makes a message shared", () => {
    expect(ask("Should we take Max to the vet?").level).toBe("local");
  });
});
