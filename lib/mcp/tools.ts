import "server-only";
import { z } from "zod";
import { createNote } from "@/lib/agent-log/notes-service";
import { agentLogContracts } from "@/lib/agent-log/contracts";
import type { AgentCaller } from "@/lib/auth/caller";
import { can } from "@/lib/auth/permissions";
import { documentContracts, documentView } from "@/lib/documents/contracts";
import { DOCUMENT_MAX_CHARS, isoDate, WORKING_MAX_CHARS } from "@/lib/documents/schemas";
import { getDocument, putDocument } from "@/lib/documents/service";
import type { AnyContract } from "@/lib/http/contract";
import { knowledgeContracts, knowledgeListView } from "@/lib/knowledge/contracts";
import { knowledgeCategory, listKnowledgeQuery } from "@/lib/knowledge/schemas";
import { createKnowledge, listKnowledge } from "@/lib/knowledge/service";
import { lifecycleContracts } from "@/lib/lifecycle/contracts";
import { draftEscalationEntry, listEscalations, raiseEscalation, resolveEscalation } from "@/lib/lifecycle/escalations";
import { getBootContext } from "@/lib/memories/boot-context";
import { memoryContracts } from "@/lib/memories/contracts";
import { createInteraction, createInteractionBatch } from "@/lib/memories/interaction-service";
import { createMemoryBody, INTERACTION_BATCH_MAX, memoryScope, outcomeBody } from "@/lib/memories/schemas";
import { listMemories, recordOutcome, writeMemory } from "@/lib/memories/service";
import { retrievalContracts } from "@/lib/retrieval/contracts";
import { assembleContext } from "@/lib/retrieval/context/assemble";
import { contextQuery, retrieveBody } from "@/lib/retrieval/schemas";
import { readableScopes, type RetrievalScope } from "@/lib/retrieval/search/scopes";
import { retrieve } from "@/lib/retrieval/service";
import { reviewContracts } from "@/lib/review/contracts";
import { lookupContact } from "@/lib/review/contacts-service";
import { PERSONAL_DATA_LABELS } from "@/lib/review/pii";
import { createSuggestion } from "@/lib/review/suggestions-service";

/**
 * The agent's memory as MCP tools. Each tool is an endpoint's contract (its permission decides who
 * sees the tool; its body or query is the tool's input, its response the tool's output schema) and
 * the service the route calls, so a tool answers, refuses and audits exactly as the API does. The
 * calling agent is always "me".
 *
 * Adding a tool is one entry: `tool(contract, { name, title, description, effect, input, run, summary })`.
 */
export interface McpTool {
  name: string;
  /** a person's name for the tool */
  title: string;
  /** tells a model when to use the tool (for this caller: what its role may do) */
  description: (caller: AgentCaller) => string;
  contract: AnyContract;
  /** `read` looks and changes nothing; a write says whether it may overwrite or remove (destructive) and whether a repeat changes nothing more (idempotent) */
  effect: "read" | { destructive: boolean; idempotent: boolean };
  /** the input for this caller: only the options its role may use */
  input: (caller: AgentCaller) => z.ZodType;
  /** the structured result (wire JSON); the contract's response unless the tool answers a part of it */
  output: z.ZodType;
  run: (caller: AgentCaller, args: never) => Promise<unknown>;
  /** a short line for a person reading the transcript; the data itself is the structured result */
  summary: (result: never) => string;
}

interface ToolSpec<I extends z.ZodType, O extends z.ZodType> {
  name: string;
  title: string;
  description: string | ((caller: AgentCaller) => string);
  effect: McpTool["effect"];
  input: I | ((caller: AgentCaller) => I);
  output?: O;
  run: (caller: AgentCaller, args: z.output<I>) => Promise<unknown>;
  summary: (result: z.input<O>) => string;
}

const tool = <C extends AnyContract, I extends z.ZodType, O extends z.ZodType = NonNullable<C["response"]>>(
  contract: C,
  t: ToolSpec<I, O>,
): McpTool => {
  const { input, output, description } = t;
  const out = output ?? contract.response;
  if (!out) throw new Error(`MCP tool ${t.name}: its contract has no JSON response to describe its output`);
  return {
    ...t,
    contract,
    output: out,
    input: typeof input === "function" ? (input as (caller: AgentCaller) => I) : () => input,
    description: typeof description === "function" ? description : () => description,
  } as unknown as McpTool;
};

const READ = "read" as const;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const quoted = (s: string) => `"${s.length > 80 ? `${s.slice(0, 79)}…` : s}"`;

const noInput = z.object({}).strict();

/** " Left out: a person's name, a street address." — what a composed entry does not carry. */
const removedNote = (removed: { kind: keyof typeof PERSONAL_DATA_LABELS }[]) =>
  removed.length ? ` Left out or generalised: ${[...new Set(removed.map((r) => PERSONAL_DATA_LABELS[r.kind]))].join(", ")}.` : "";

/**
 * A document's new content. The limit is counted in characters as people count them (code points),
 * as the service and JSON Schema's maxLength count them, so it is stated in the schema and enforced
 * by the service (zod's own max counts UTF-16 units and would refuse emoji early).
 */
const documentWrite = (maxChars: number) =>
  z
    .object({
      content: z.string().meta({ maxLength: maxChars }).describe(`the whole document, at most ${maxChars} characters`),
      expectedVersion: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe("the version you last read; a stale one is refused with version_conflict (read again and merge)"),
    })
    .strict();

const dailyDate = isoDate.optional().describe("YYYY-MM-DD; default today");
const documentSummary = (label: string) => (d: z.input<typeof documentView>) =>
  d.version === 0 ? `${label} is empty (never written, version 0).` : `${label}, version ${d.version}:\n\n${d.content}`;
const savedSummary = (label: string) => (d: { version: number }) => `Saved ${label} as version ${d.version}.`;
const docState = (d: { version: number }) => (d.version === 0 ? "empty" : `version ${d.version}`);
const memoryLine = (m: { tier: string; category: string; title: string }) => `${m.tier}/${m.category}: ${m.title}`;

/** The scopes `retrieve` offers this caller by name: those its role may read, conversations only to internal agents. */
const mcpScopes = (caller: AgentCaller) =>
  readableScopes(caller).filter((s) => caller.kind === "internal" || s !== "interactions") as [RetrievalScope, ...RetrievalScope[]];

export const MCP_TOOLS: McpTool[] = [
  tool(retrievalContracts.retrieve, {
    name: "retrieve",
    title: "Search memory",
    // what the smart trigger may search for this caller, and the scopes it may name
    description: (caller) => {
      const conversations = readableScopes(caller).includes("interactions");
      const searched = [
        caller.kind === "internal" && conversations ? "your memories, documents and conversations" : "your memories and documents",
        caller.kind !== "internal" && conversations && "your client's conversations when a question calls for them",
        caller.kind === "internal" && "the team's shared knowledge",
        "the HQ knowledge base",
      ].filter(Boolean);
      return (
        "Search your memory before answering anything about the past, a person, a client, a decision or a procedure. " +
        `Without scopes the smart trigger decides what to search (${searched.join(", ")}); give scopes ` +
        `(${mcpScopes(caller).join(", ")}) to search exactly those. Returns ranked items and a ready-to-paste context block.`
      );
    },
    effect: READ,
    // only scopes this agent's role may read (a field agent has no team scope; conversations are for managers and
    // orchestrators), and a field agent is not offered conversations by name: the smart trigger searches its
    // client's conversations when a question calls for them (no scopes), as the API's retrieve does
    input: (caller) => {
      const readable = mcpScopes(caller);
      return retrieveBody.omit({ agentId: true }).extend({
        scopes: z
          .array(z.enum(readable))
          .min(1)
          .max(readable.length)
          .optional()
          .describe("search exactly these scopes and skip the smart trigger"),
      });
    },
    run: (caller, args) => retrieve(caller, args),
    summary: (r) =>
      r.items.length
        ? `Found ${plural(r.items.length, "item")} (level ${r.level}, scopes ${r.scopes.join(", ")}).\n\n${r.context}`
        : `Nothing found (level ${r.level}${r.scopes.length ? `, scopes ${r.scopes.join(", ")}` : ""}).`,
  }),
  tool(memoryContracts.write, {
    name: "memory_write",
    title: "Remember",
    description:
      "Store something worth remembering beyond this conversation: a fact about a client (core), a commitment or thread in " +
      "progress (working), or a decision, correction, insight or lesson (learning). Title ≤ 200 characters; confidence ≥ 0.4 " +
      "(below that, do not store it). Give sourceTraceId to make retries safe. A near-duplicate of an active learning memory " +
      "reinforces it instead; past the cap of active memories the least valuable one is archived (kept, not deleted).",
    effect: { destructive: false, idempotent: false },
    // field agents have no shared brain: only their own (agent) scope is offered
    input: (caller) =>
      caller.kind === "internal"
        ? createMemoryBody.safeExtend({
            scope: memoryScope.optional().describe("agent (default): yours only; team: shared with the other internal agents"),
          })
        : createMemoryBody.safeExtend({ scope: z.enum(["agent"]).optional().describe("agent (default): yours only") }),
    run: async (caller, args) => {
      const { created: _created, ...result } = await writeMemory(caller, "me", args);
      return result;
    },
    summary: (r) =>
      r.deduplicated
        ? `Already known: ${memoryLine(r.memory)} (${r.reason === "near_duplicate" ? "a near-duplicate was reinforced" : "this sourceTraceId was stored before"}).`
        : `Stored ${memoryLine(r.memory)} (id ${r.memory.id})${r.archived?.length ? `; archived ${plural(r.archived.length, "memory", "memories")} past the cap` : ""}.`,
  }),
  tool(documentContracts.get, {
    name: "scratchpad_read",
    title: "Read scratchpad",
    description: `Read your scratchpad (the WORKING document, ≤ ${WORKING_MAX_CHARS} characters): what you are doing right now. Read it at the start of a task; note its version.`,
    effect: READ,
    input: noInput,
    run: (caller) => getDocument(caller, "me", "working", {}),
    summary: documentSummary("Scratchpad"),
  }),
  tool(documentContracts.put, {
    name: "scratchpad_update",
    title: "Update scratchpad",
    description:
      `Replace your scratchpad (≤ ${WORKING_MAX_CHARS} characters) when your current task, plan or open questions change. Pass expectedVersion ` +
      "(the version you read) so a concurrent change is never overwritten.",
    // replaces the content; the same content again leaves the same document
    effect: { destructive: true, idempotent: true },
    input: documentWrite(WORKING_MAX_CHARS),
    run: (caller, args) => putDocument(caller, "me", "working", args),
    summary: savedSummary("the scratchpad"),
  }),
  tool(documentContracts.get, {
    name: "soul_read",
    title: "Read SOUL",
    description: "Read your SOUL document: who you are, your voice and your standing rules.",
    effect: READ,
    input: noInput,
    run: (caller) => getDocument(caller, "me", "soul", {}),
    summary: documentSummary("SOUL"),
  }),
  tool(documentContracts.put, {
    name: "soul_write",
    title: "Rewrite SOUL",
    description: `Replace your SOUL document (≤ ${DOCUMENT_MAX_CHARS} characters). Only when your identity or standing rules truly change; pass expectedVersion.`,
    effect: { destructive: true, idempotent: true },
    input: documentWrite(DOCUMENT_MAX_CHARS),
    run: (caller, args) => putDocument(caller, "me", "soul", args),
    summary: savedSummary("SOUL"),
  }),
  tool(documentContracts.get, {
    name: "daily_read",
    title: "Read daily note",
    description: "Read a daily note (default: today) — the running log of what happened that day.",
    effect: READ,
    input: z.object({ date: dailyDate }).strict(),
    run: (caller, args) => getDocument(caller, "me", "daily", args),
    summary: (d) => documentSummary(`Daily note ${d.date ?? ""}`.trim())(d),
  }),
  tool(documentContracts.put, {
    name: "daily_write",
    title: "Write daily note",
    description:
      `Write today's daily note (or the day given, ≤ ${DOCUMENT_MAX_CHARS} characters): append what happened by sending the whole note ` +
      "back with expectedVersion.",
    effect: { destructive: true, idempotent: true },
    input: documentWrite(DOCUMENT_MAX_CHARS).extend({ date: dailyDate }).strict(),
    run: (caller, args) => putDocument(caller, "me", "daily", args),
    summary: (d) => savedSummary(`the daily note ${d.date ?? ""}`.trim())(d),
  }),
  tool(memoryContracts.boot, {
    name: "boot",
    title: "Boot context",
    description:
      "Load everything you need at the start of a session: your SOUL, scratchpad, today's note, core memories, pending " +
      "commitments, recent work, the locked constants and (internal agents) the team's highlights. Call it once when you start.",
    effect: READ,
    input: noInput,
    run: (caller) => getBootContext(caller, "me"),
    summary: (b) =>
      `Loaded ${b.agent.name}'s SOUL (${docState(b.soul)}), scratchpad (${docState(b.working)}), today's note (${docState(b.daily)}), ` +
      `${plural(b.core.length, "core memory", "core memories")}, ${plural(b.pending.length, "pending commitment")}, ` +
      `${plural(b.recent.length, "recent item")}, ${plural(b.lockedConstants.length, "locked constant")}` +
      (b.teamHighlights ? ` and ${plural(b.teamHighlights.length, "team highlight")}.` : "."),
  }),
  tool(retrievalContracts.context, {
    name: "context",
    title: "Assemble context",
    description:
      "Get your assembled system prompt for a topic: SOUL, scratchpad, the current situation across the team, the memories most " +
      "relevant to the topic plus the most recent, and the locked constants. Use it before starting work on a new topic.",
    effect: READ,
    input: z.object({ topic: contextQuery.shape.topic.describe("what you are about to work on") }).strict(),
    run: (caller, args) => assembleContext(caller, "me", args),
    summary: (c) => c.text,
  }),
  tool(knowledgeContracts.list, {
    name: "kb_search",
    title: "Search knowledge base",
    description:
      "Search the HQ knowledge base (procedures, best practices, templates, skill docs, escalation and tool guides) for how to " +
      "do something. Hybrid full-text and semantic search.",
    effect: READ,
    input: z
      .object({
        q: z.string().trim().min(1).max(500).describe("what you are looking for"),
        category: knowledgeCategory.optional(),
        tag: z.string().max(40).optional(),
        limit: z.number().int().min(1).max(50).optional(),
      })
      .strict(),
    // with q the list endpoint always searches: the search answer
    output: knowledgeListView.options[1],
    run: (caller, args) => listKnowledge(caller, listKnowledgeQuery.parse(args)),
    summary: (r) =>
      r.entries.length
        ? `${plural(r.entries.length, "entry", "entries")} for ${quoted(r.query)}:\n${r.entries.map((e) => `- ${e.title} (${e.category}, id ${e.id})`).join("\n")}`
        : `No knowledge base entry matches ${quoted(r.query)}.`,
  }),
  tool(knowledgeContracts.create, {
    name: "kb_write",
    title: "Add knowledge base entry",
    description:
      "Add an entry to the HQ knowledge base when you have a procedure or practice every agent should follow. Search first: a " +
      "published title that already exists is refused.",
    effect: { destructive: false, idempotent: false },
    input: knowledgeContracts.create.body,
    run: (caller, args) => createKnowledge(caller, args),
    summary: (r) => `Added ${quoted(r.entry.title)} to the knowledge base (${r.entry.category}, ${r.entry.status}, id ${r.entry.id}).`,
  }),
  tool(reviewContracts.createSuggestion, {
    name: "suggest_fact",
    title: "Suggest a contact fact",
    description:
      "Propose a fact about a contact (preferred time, address, budget…) for the memory manager to approve. Never personal data " +
      "such as SSNs, card numbers, health, religion or politics (refused at once). It waits for review: one below confidence 0.7 " +
      "or contradicting a locked constant is rejected then.",
    effect: { destructive: false, idempotent: false },
    input: reviewContracts.createSuggestion.body,
    run: (caller, args) => createSuggestion(caller, args),
    summary: (r) => `Suggested ${r.suggestion.key} = ${quoted(String(r.suggestion.value))} (${r.suggestion.status}, id ${r.suggestion.id}).`,
  }),
  tool(reviewContracts.lookupContact, {
    name: "contact_lookup",
    title: "Look up a contact",
    description: "Look up a contact and their approved facts by phone number or email before talking to them.",
    effect: READ,
    input: reviewContracts.lookupContact.query,
    run: (caller, args) => lookupContact(caller, args),
    summary: (r) =>
      `${r.contact.name ?? "Unnamed contact"} (id ${r.contact.id}): ${r.facts.length ? r.facts.map((f) => `${f.key} = ${f.value}`).join("; ") : "no approved facts"}.`,
  }),
  tool(memoryContracts.createInteraction, {
    name: "log_interaction",
    title: "Log a message",
    description:
      "Record one message of a conversation (inbound or outbound, with its channel and contact) so it can be recalled later. " +
      "Give externalId to make a retry store nothing twice.",
    effect: { destructive: false, idempotent: false },
    input: memoryContracts.createInteraction.body,
    run: (caller, args) => createInteraction(caller, args),
    summary: (r) =>
      r.deduplicated
        ? `Already recorded (id ${r.interaction.id}).`
        : `Recorded the ${r.interaction.direction} ${r.interaction.channel} message (id ${r.interaction.id}, conversation ${r.interaction.conversation}).`,
  }),
  tool(memoryContracts.createInteractionBatch, {
    name: "log_conversation",
    title: "Log a conversation",
    description:
      `Record a whole transcript (1–${INTERACTION_BATCH_MAX} messages, in the order they were said) in one call: give each message an externalId ` +
      "so a retry stores nothing twice, and a conversationId for the thread. All or nothing. Over MCP one request carries at most " +
      "MAX_BODY_BYTES (1 MB by default): send a longer transcript in parts.",
    effect: { destructive: false, idempotent: false },
    input: memoryContracts.createInteractionBatch.body,
    run: (caller, args) => createInteractionBatch(caller, args),
    summary: (r) => {
      const repeated = r.interactions.filter((i) => i.deduplicated).length;
      return `Recorded ${plural(r.interactions.length - repeated, "message")}${repeated ? `; ${repeated} already recorded` : ""}.`;
    },
  }),
  tool(memoryContracts.list, {
    name: "decisions",
    title: "List decisions",
    description:
      "List your recorded decisions (learning memories of category decision), newest first, to recall why you decided " +
      "something, or with outcome: awaiting to find the ones whose outcome you should now record.",
    effect: READ,
    input: z
      .object({
        status: z.enum(["active", "archived", "all"]).optional().describe("active (default), archived, or all"),
        outcome: z.enum(["awaiting", "worked", "failed"]).optional().describe("awaiting an outcome, or scored as worked or failed"),
        q: z.string().trim().min(1).max(200).optional().describe("full-text filter"),
        limit: z.number().int().min(1).max(200).optional(),
      })
      .strict(),
    run: (caller, args) =>
      listMemories(caller, "me", { ...args, status: args.status ?? "active", limit: args.limit ?? 50, offset: 0, tier: "learning", category: "decision" }),
    summary: (r) =>
      r.memories.length
        ? `${plural(r.total, "decision")}:\n${r.memories.map((m) => `- ${m.title} (id ${m.id}${m.outcome ? `, outcome: ${m.outcome.success ? "success" : "failure"}` : ", no outcome yet"})`).join("\n")}`
        : "No decisions recorded.",
  }),
  tool(memoryContracts.outcome, {
    name: "record_outcome",
    title: "Record a decision's outcome",
    description:
      "Record how a decision turned out (result, success, notes) once you know. It is stored on the decision and as a linked " +
      "learning memory, so the team learns which decisions work. A decision takes one outcome: a second is refused " +
      "(conflict) and changes nothing, so a retry after a lost answer is safe.",
    // a decision takes one outcome: a repeat is refused and changes nothing
    effect: { destructive: false, idempotent: true },
    input: outcomeBody.extend({ decisionId: z.uuid().describe("the decision memory's id") }).strict(),
    run: (caller, { decisionId, ...body }) => recordOutcome(caller, decisionId, body),
    summary: (r) => `Recorded the outcome of ${quoted(r.decision.title)} (outcome memory ${r.outcome.id}).`,
  }),
  tool(agentLogContracts.createNote, {
    name: "note",
    title: "Leave a note",
    description:
      "Leave a short note for the team that matters only for the next day (it expires after 24 hours), e.g. 'caller will ring back at 3pm'.",
    effect: { destructive: false, idempotent: false },
    input: agentLogContracts.createNote.body,
    run: (caller, args) => createNote(caller, args),
    summary: (r) => `Note left (id ${r.note.id}); it expires after 24 hours.`,
  }),
  tool(lifecycleContracts.raiseEscalation, {
    name: "escalate",
    title: "Escalate to HQ",
    description:
      "Raise an escalation to HQ when you cannot resolve something yourself (a customer problem, a broken tool, a question " +
      "outside what you may decide) and need HQ to step in. Give the question, a severity (low, medium, high, critical) and " +
      "the context: what happened and what you already tried. The answer may already contain a known fix (knownFix) captured " +
      "when HQ resolved the same issue before: try it first. similarKnowledge lists related knowledge base entries.",
    effect: { destructive: false, idempotent: false },
    input: lifecycleContracts.raiseEscalation.body,
    run: (caller, args) => raiseEscalation(caller, args),
    summary: (r) =>
      `Escalation raised (id ${r.escalation.id}, ${r.escalation.severity}).` +
      (r.knownFix ? ` Known fix: ${quoted(r.knownFix.title)} (knowledge ${r.knownFix.id}) — try it first.` : "") +
      (r.similarKnowledge.length ? ` Related: ${r.similarKnowledge.map((k) => quoted(k.title)).join(", ")}.` : ""),
  }),
  tool(lifecycleContracts.listEscalations, {
    name: "escalations",
    title: "List escalations",
    effect: READ,
    description:
      "List escalations raised to HQ (a field agent sees its own client's only): open ones first, the most severe and oldest " +
      "first, with counts. Use status 'open' to find the ones still waiting for a fix.",
    input: lifecycleContracts.listEscalations.query,
    run: (caller, args) => listEscalations(caller, args),
    summary: (r) =>
      `${r.counts.open} open, ${r.counts.resolved} resolved` +
      (r.escalations.length ? `: ${r.escalations.map((e) => `${quoted(e.question)} (${e.severity}, ${e.status}, id ${e.id})`).join("; ")}.` : "."),
  }),
  tool(lifecycleContracts.draftEscalationEntry, {
    name: "escalation_draft",
    title: "Preview an escalation's knowledge entry",
    effect: READ,
    description:
      "Preview the knowledge entry escalation_resolve would publish without a knowledge body: the question and your resolution, " +
      "with people's names, the client's name, addresses, phone numbers, emails, SSNs and card numbers left out or generalised " +
      "(personalDataRemoved says what). It is published to every client's agents: if it still says too much, word it yourself " +
      "(knowledge) or publish nothing (knowledge: false).",
    input: lifecycleContracts.draftEscalationEntry.body.extend({ escalationId: z.uuid().describe("the escalation to resolve") }),
    run: (caller, { escalationId, ...body }) => draftEscalationEntry(caller, escalationId, body),
    summary: (r) => `Draft ${quoted(r.draft.title)}:\n\n${r.draft.content}${removedNote(r.personalDataRemoved)}`,
  }),
  tool(lifecycleContracts.resolveEscalation, {
    name: "escalation_resolve",
    title: "Resolve an escalation",
    effect: { destructive: false, idempotent: false },
    description:
      "Resolve an open escalation with the fix that was given (resolution, required). The fix is published to the knowledge " +
      "base linked to the escalation, for every client's agents — composed from the question and resolution with personal data " +
      "left out (preview it with escalation_draft), or pass knowledge {title, content, category, tags} to word the entry " +
      "yourself, or knowledge: false for a one-off with nothing to reuse — so a later similar escalation is answered with it as knownFix.",
    input: lifecycleContracts.resolveEscalation.body.extend({ escalationId: z.uuid().describe("the escalation to resolve") }),
    run: (caller, { escalationId, ...body }) => resolveEscalation(caller, escalationId, body),
    summary: (r) =>
      `Escalation ${r.escalation.id} resolved.` +
      (r.knowledge ? ` The fix is published as ${quoted(r.knowledge.title)} (knowledge ${r.knowledge.id}).` : "") +
      removedNote(r.personalDataRemoved ?? []),
  }),
];

/** The tools this agent may use: those whose endpoint its role may call (isolated agents: none). */
export function toolsFor(caller: AgentCaller): McpTool[] {
  return MCP_TOOLS.filter((t) => t.contract.permission !== null && can(caller, t.contract.permission));
}
