// Request examples of the endpoints agents call, by operationId, as OpenAPI Example Objects. A unit
// test parses each with its contract's body schema, so an example never shows a call the API refuses.

type Examples = Record<string, { summary: string; value: unknown }>;

export const REQUEST_EXAMPLES: Record<string, Examples> = {
  "memories.write": {
    decision: {
      summary: "A decision: category decision lives in the learning tier, with the reasoning to judge it by later",
      value: {
        tier: "learning",
        category: "decision",
        title: "Offer the Tuesday 9:00 slot before the Friday one",
        content: "Friday mornings were overbooked three weeks running; Tuesday has capacity.",
        confidence: 0.8,
        tags: ["scheduling"],
        decisionContext: {
          reasoning: "Friday is overbooked; Tuesday keeps the same technician.",
          alternatives: ["Friday 9:00", "Wednesday 14:00"],
          killCriteria: "Two customers in a row decline Tuesday",
        },
        sourceTraceId: "run-2026-11-26-0042",
      },
    },
    preference: {
      summary: "A lasting preference: core tier",
      value: {
        tier: "core",
        category: "preference",
        title: "Alice prefers SMS to phone calls",
        confidence: 0.9,
        source: "alice",
      },
    },
    commitment: {
      summary: "A promise to keep: working tier, listed under pending at boot until resolved",
      value: { tier: "working", category: "commitment", title: "Call Alice back on Thursday about the quote", confidence: 0.95 },
    },
  },
  "memories.update": {
    resolve: { summary: "Resolve a commitment that was kept", value: { status: "resolved", expectedVersion: 3 } },
  },
  "memories.outcome": {
    outcome: {
      summary: "Score a decision",
      value: { result: "Customer accepted Tuesday", success: true, notes: "Took 2 messages" },
    },
  },
  "memories.createInteraction": {
    inbound: {
      summary: "One inbound SMS of a conversation",
      value: {
        channel: "sms",
        direction: "inbound",
        speaker: "Alice",
        content: "Can you come Tuesday instead?",
        conversationId: "thread-81731",
        externalId: "sms-5521",
      },
    },
  },
  "memories.createInteractionBatch": {
    transcript: {
      summary: "Two turns of a call, in the order said",
      value: {
        interactions: [
          { channel: "call", direction: "inbound", speaker: "Alice", content: "Is the quote still valid?", conversationId: "call-991", externalId: "call-991-1" },
          { channel: "call", direction: "outbound", speaker: "Agent", content: "Yes, until the end of the month.", conversationId: "call-991", externalId: "call-991-2" },
        ],
      },
    },
  },
  "retrieval.retrieve": {
    smart: { summary: "Let the trigger pick the scopes", value: { message: "What did we promise Alice about the quote?", limit: 5 } },
    scoped: {
      summary: "Search exactly these scopes",
      value: { message: "boiler pressure drops overnight", scopes: ["memories", "knowledge"] },
    },
  },
  "retrieval.trigger": {
    message: { summary: "Which scopes would a message search?", value: { message: "Alice asked about last week's visit" } },
  },
  "documents.put": {
    scratchpad: {
      summary: "Replace the scratchpad, refusing a stale write",
      value: { content: "- waiting for Alice's reply\n- quote #118 sent", expectedVersion: 4 },
    },
  },
  "agentLog.createNote": {
    note: { summary: "A free note", value: { content: "Alice's gate code changed; ask on arrival." } },
  },
  "agentLog.createEvent": {
    event: {
      summary: "A tool call that failed",
      value: { kind: "booking.failed", summary: "Calendar API refused the Tuesday slot", outcome: "failure", payload: { slot: "2026-12-01T09:00:00Z" } },
    },
  },
  "lifecycle.raiseEscalation": {
    question: {
      summary: "Ask HQ when no rule covers it",
      value: { question: "A customer reports a gas smell at the boiler: what do we tell them?", severity: "critical" },
    },
  },
};
