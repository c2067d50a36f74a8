import { describe, expect, it } from "vitest";
import coefficientsFile from "@/lib/retrieval/search/conversation-ranker.json";
import { fitQuestionAdapter, matrixRows, type AdapterConversation } from "@/bench/question-adapter";
import { LOCAL_MODEL } from "@/lib/embeddings/local";
import {
  conversationQueryVector,
  messageSignals,
  RANKER,
  rankTurns,
  scoreFeatures,
  TURN_FEATURES,
  turnFeatures,
  type QuestionAdapter,
  type RankerCoefficients,
  type TurnSignals,
} from "@/lib/retrieval/search/conversation-ranker";
import { askedKinds, heldKinds } from "@/lib/retrieval/search/answer-kinds";
import { hasTimeExpression, isWhenQuestion, namedPeriods, periodMatch } from "@/lib/retrieval/search/time-signals";

const turn = (over: Partial<TurnSignals> = {}): TurnSignals => ({
  content: "Dana: I replaced the thermocouple on the heater last week, no luck",
  speaker: "Dana",
  occurredAt: "2023-05-08T13:56:00Z",
  lexicalScore: 0.5,
  coverage: 0.5,
  similarity: 0.6,
  contextSimilarity: 0.7,
  conversationCoverage: 0.5,
  ...over,
});

describe("time signals", () => {
  it("tells questions that ask when from others", () => {
    for (const q of ["When did Dana call about the heater?", "What year did they move?", "How long ago was the last visit?", "Since when has the boiler leaked?", "In which month did she start?"]) {
      expect(isWhenQuestion(q), q).toBe(true);
    }
    for (const q of ["What has Dana tried so far to fix the heater?", "Who called when the heater broke?", "Where did they go in May?"]) {
      expect(isWhenQuestion(q), q).toBe(false);
    }
  });

  it("finds the words that place something in time", () => {
    for (const t of ["I called them yesterday", "Last week we swapped the valve", "two days ago it stopped", "We went in May", "back in 2019", "on Friday it broke", "a while ago"]) {
      expect(hasTimeExpression(t), t).toBe(true);
    }
    for (const t of ["The valve is new", "May I ask what model it is?", "It takes a long time to heat up"]) {
      expect(hasTimeExpression(t), t).toBe(false);
    }
  });

  it("reads the months and years a question names, and matches a turn's time against them", () => {
    expect(namedPeriods("What did Joanna achieve in January 2022?")).toEqual([{ year: 2022, month: 1 }]);
    expect(namedPeriods("What happened in May?")).toEqual([{ year: null, month: 5 }]);
    // "may" as a verb is no month
    expect(namedPeriods("May I ask what happened?")).toEqual([]);
    expect(namedPeriods("Where did they travel during 2021 and 2022?")).toEqual([{ year: 2021, month: null }, { year: 2022, month: null }]);
    const jan = namedPeriods("in January 2022");
    expect(periodMatch(jan, "2022-01-23T10:00:00Z")).toBe(1);
    expect(periodMatch(jan, "2022-02-01T10:00:00Z")).toBe(0);
    expect(periodMatch(namedPeriods("in 2022"), "2022-07-01T00:00:00Z")).toBe(0.6);
    expect(periodMatch([], "2022-07-01T00:00:00Z")).toBe(0);
  });
});

describe("answer kinds", () => {
  it("reads the kind of answer a question asks for", () => {
    expect(askedKinds("What are Dave's hobbies other than fixing cars?")).toEqual(["activity"]);
    expect(askedKinds("Where did Evan travel in the summer?")).toEqual(["place"]);
    expect(askedKinds("What books has Tim read?")).toEqual(["title"]);
    expect(askedKinds("How many tournaments has Nate won?")).toEqual(["number"]);
    expect(askedKinds("Who did Evan meet at the party?")).toEqual(["person"]);
    expect(askedKinds("Did Dana fix the heater?")).toEqual([]);
  });

  it("finds the kinds a turn holds: activities, names that are not the speakers' or the question's, titles, numbers", () => {
    const known = new Set(["evan", "sam", "where", "did", "go"]);
    expect([...heldKinds("Evan: I went fishing with my brother", "", known)]).toEqual(["activity"]);
    // everyday "-ing" words are no activity; the first word of a sentence and the speakers are no name
    expect(heldKinds("Sam: Thanks Evan! Nothing much going on, something came up this morning.", "", known).size).toBe(0);
    expect([...heldKinds("Evan: We drove up to Banff with Sam.", "", known)].sort()).toEqual(["person", "place", "title"]);
    // a speaker's name is known however its accents were typed
    const jose = messageSignals("Who did José meet?", ["José"]).known;
    expect(heldKinds("Sam: We saw José at the market.", "", jose).has("person")).toBe(false);
    expect(heldKinds("Sam: We saw Jose at the market.", "", jose).has("person")).toBe(false);
    expect(heldKinds("Sam: We saw José and Ana at the market.", "", jose).has("person")).toBe(true);
    // days and months are capitalised without being names
    expect(heldKinds("Evan: See you on Friday in May.", "", known).has("person")).toBe(false);
    expect(heldKinds('Sam: I finally read "the road" again.', "", known).has("title")).toBe(true);
    expect(heldKinds("Sam: I have won 4 tournaments so far.", "", known).has("number")).toBe(true);
    // what a photo showed counts as said
    expect(heldKinds("Sam: Look at this!", "a photo of a man fishing on a lake", known)).toEqual(new Set(["activity", "place"]));
  });

  it("gives a turn the answerKind feature only when it holds what the message asks for", () => {
    const at = TURN_FEATURES.indexOf("answerKind");
    const hobby = messageSignals("What are Dana's hobbies?", ["Dana", "Sam"]);
    expect(turnFeatures(turn({ content: "Dana: Painting, mostly. And a lot of gardening." }), hobby)[at]).toBe(1);
    expect(turnFeatures(turn({ content: "Dana: Not much, to be honest." }), hobby)[at]).toBe(0);
    expect(turnFeatures(turn({ content: "Dana: Look!", attachments: [{ caption: "a woman painting a canvas" }] }), hobby)[at]).toBe(1);
    // a message that asks for no kind of answer
    expect(turnFeatures(turn({ content: "Dana: Painting, mostly." }), messageSignals("Did Dana fix the heater?", ["Dana"]))[at]).toBe(0);
  });
});

describe("the conversation ranker", () => {
  it("ships versioned coefficients with a weight for every feature it computes", () => {
    expect(RANKER).toEqual(coefficientsFile);
    expect(Number.isInteger(RANKER.version) && RANKER.version >= 1).toBe(true);
    expect(RANKER.features).toEqual([...TURN_FEATURES]);
    for (const f of TURN_FEATURES) expect(typeof RANKER.weights[f], f).toBe("number");
    // the question adapter, fitted with the weights, maps vectors of the default local model
    const adapter = RANKER.adapter!;
    expect(adapter.model).toBe(LOCAL_MODEL);
    expect(adapter.matrix).toHaveLength(adapter.dims);
    for (const row of adapter.matrix) expect(row).toHaveLength(adapter.dims);
  });

  it("reads the features off a turn and the message", () => {
    const m = messageSignals("When did Dana try the thermocouple?");
    const f = Object.fromEntries(TURN_FEATURES.map((name, i) => [name, turnFeatures(turn(), m)[i]]));
    expect(f).toMatchObject({ lexical: 0.5, coverage: 0.5, similarity: 0.6, contextSimilarity: 0.7, conversationCoverage: 0.5, speakerNamed: 1, onlyQuestion: 0, timeForWhen: 1, periodMatch: 0, answerKind: 0 });
    expect(f.length).toBeCloseTo(11 / 20);
    const other = turnFeatures(turn({ speaker: "Sam", content: "Sam: did you try the valve?", similarity: null }), messageSignals("What did Dana try?"));
    expect(other[TURN_FEATURES.indexOf("speakerNamed")]).toBe(0);
    expect(other[TURN_FEATURES.indexOf("onlyQuestion")]).toBe(1);
    expect(other[TURN_FEATURES.indexOf("similarity")]).toBe(0);
    expect(other[TURN_FEATURES.indexOf("timeForWhen")]).toBe(0);
  });

  it("scores a turn as the weighted sum of its features over the sum of the positive weights", () => {
    const ranker: RankerCoefficients = {
      version: 1,
      features: [...TURN_FEATURES],
      weights: Object.fromEntries(TURN_FEATURES.map((f) => [f, f === "lexical" ? 3 : f === "similarity" ? 1 : f === "onlyQuestion" ? -2 : 0])),
    };
    const at = (values: Partial<Record<(typeof TURN_FEATURES)[number], number>>) => TURN_FEATURES.map((f) => values[f] ?? 0);
    expect(scoreFeatures(at({ lexical: 1, similarity: 1 }), ranker)).toBe(1);
    expect(scoreFeatures(at({ lexical: 0.5, similarity: 0.5 }), ranker)).toBe(0.5);
    expect(scoreFeatures(at({ lexical: 1, onlyQuestion: 1 }), ranker)).toBe(0.25);
    // never below 0
    expect(scoreFeatures(at({ onlyQuestion: 1 }), ranker)).toBe(0);
  });

  it("orders candidates by the shipped weights, ties in the search's order", () => {
    const a = turn({ content: "Sam: did you try?", speaker: "Sam", lexicalScore: 0.9, contextSimilarity: 0.5 });
    const b = turn({ lexicalScore: 0.9, contextSimilarity: 0.9 });
    const c = turn({ lexicalScore: 0.9, contextSimilarity: 0.9 });
    const ranked = rankTurns([a, b, c], "What did Dana try?");
    expect(ranked.map((r) => r.content === a.content)).toEqual([false, false, true]);
    expect(ranked[0]!.score).toBeGreaterThan(ranked[2]!.score);
    expect(ranked[0]!.score).toBe(ranked[1]!.score);
    expect(ranked.slice(0, 2)).toEqual([
      { ...b, score: ranked[0]!.score, answerKinds: [] },
      { ...c, score: ranked[1]!.score, answerKinds: [] },
    ]);
  });
});

describe("the question adapter", () => {
  const ranker = (matrix: number[][], model = "m"): QuestionAdapter => ({ model, dims: matrix.length, matrix });

  it("maps a vector of its model (row vector times matrix) and normalises it; others stay as they are", () => {
    const swap = ranker([
      [0, 2],
      [0, 0],
    ]);
    expect(conversationQueryVector([1, 0], "m", swap)).toEqual([0, 1]);
    expect(conversationQueryVector([0.6, 0.8], "m", swap)).toEqual([0, 1]);
    // another provider's model, another width, or a map to nothing: as it is
    expect(conversationQueryVector([1, 0], "other", swap)).toEqual([1, 0]);
    expect(conversationQueryVector([1, 0, 0], "m", swap)).toEqual([1, 0, 0]);
    expect(conversationQueryVector([0, 1], "m", swap)).toEqual([0, 1]);
  });

  it("learns to bring a question closest to the turns that answer it", () => {
    // three dimensions: questions lie along x, the turns that answer them along y, the others along z
    // — as they are, a question is as close to one as to the other
    const unit = (v: number[]) => v.map((x) => x / Math.hypot(...v));
    const conv: AdapterConversation = {
      dims: 3,
      turns: Float64Array.from([...unit([0.5, 1, 0]), ...unit([0.5, 0, 1]), ...unit([0.5, 0, 1.1])]),
      questions: Float64Array.from([...unit([1, 0.1, 0.1])]),
      evidence: [[0]],
    };
    const rows = matrixRows(fitQuestionAdapter([conv], { temperature: 10, l2: 0.01, iterations: 100, rate: 0.05 }), 3);
    const mapped = conversationQueryVector([...conv.questions], "m", ranker(rows));
    const cos = (t: number) => mapped.reduce((s, x, j) => s + x * conv.turns[t * 3 + j]!, 0);
    expect(cos(0)).toBeGreaterThan(cos(1) + 0.2);
    expect(cos(0)).toBeGreaterThan(cos(2) + 0.2);
    // without evidence to learn from, the map leaves vectors as they are
    expect(matrixRows(fitQuestionAdapter([{ ...conv, evidence: [[]] }]), 3)).toEqual([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
  });
});
