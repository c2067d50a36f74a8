import "server-only";
import { z } from "zod";
import { createNote } from "@/lib/agent-log/notes-service";
import { agentLogContracts } from "@/lib/agent-log/contracts";
import type { AgentCaller } from "@/lib/auth/caller";
import { can } from "@/lib/auth/permissions";
import { documentContracts } from "@/lib/documents/contracts";
import { isoDate } from "@/lib/documents/schemas";
import { getDocument, putDocument } from "@/lib/documents/service";
import type { AnyContract } from "@/lib/http/contract";
import { knowledgeContracts } from "@/lib/knowledge/contracts";
import { knowledgeCategory, listKnowledgeQuery } from "@/lib/knowledge/schemas";
import { createKnowledge, listKnowledge } from "@/lib/knowledge/service";
import { lifecycleContracts } from "@/lib/lifecycle/contracts";
import { listEscalations, raiseEscalation, resolveEscalation } from "@/lib/lifecycle/escalations";
import { getBootContext } from "@/lib/memories/boot-context";
import { memoryContracts } from "@/lib/memories/contracts";
import { createInteraction, createInteractionBatch } from "@/lib/memories/interaction-service";
import { outcomeBody } from "@/lib/memories/schemas";
import { listMemories, recordOutcome, writeMemory } from "@/lib/memories/service";
import { retrievalContracts } from "@/lib/retrieval/contracts";
import { assembleContext } from "@/lib/retrieval/context";
import { retrieveBody } from "@/lib/retrieval/schemas";
import { retrieve } from "@/lib/retrieval/service";
import { reviewContracts } from "@/lib/review/contracts";
import { lookupContact } from "@/lib/review/contacts-service";
import { createSuggestion } from "@/lib/review/suggestions-service";

/**
 * The agent's memory as MCP tools. Each tool is an endpoint's contract (its permission decides who
 * sees the tool; its body or query is the tool's input) and the service the route calls, so a tool
 * answers, refuses and audits exactly as the API does. The calling agent is always "me".
 *
 * Adding a tool is one entry: `tool(contract, { name, description, input, run })`.
 */
export interface McpTool<I extends z.ZodType = z.ZodType> {
  name: string;
  /** tells a model when to use the tool */
  description: string;
  contract: AnyContract;
  input: I;
  run: (caller: AgentCaller, args: z.output<I>) => Promise<unknown>;
}

const tool = <I extends z.ZodType>(contract: AnyContract, t: Omit<McpTool<I>, "contract">): McpTool =>
  ({ ...t, contract }) as unknown as McpTool;

const noInput = z.object({}).strict();
const documentWrite = z
  .object({
    content: z.string(),
    expectedVersion: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("the version you last read; a stale one is refused with version_conflict (read again and merge)"),
  })
  .strict();

export const MCP_TOOLS: McpTool[] = [
  tool(retrievalContracts.retrieve, {
    name: "retrieve",
    description:
      "Search your memory before answering anything about the past, a person, a client, a decision or a procedure. " +
      "Without scopes the smart trigger decides what to search (your memories, documents and conversations, the team's shared " +
      "knowledge, the HQ knowledge base); give scopes to search exactly those. Returns ranked items and a ready-to-paste context block.",
    input: retrieveBody.omit({ agentId: true }),
    run: (caller, args) => retrieve(caller, args),
  }),
  tool(memoryContracts.write, {
    name: "memory_write",
    description:
      "Store something worth remembering beyond this conversation: a fact about a client (core), a commitment or thread in " +
      "progress (working), or a decision, correction, insight or lesson (learning). Title ≤ 200 characters; confidence ≥ 0.4 " +
      "(below that, do not store it). Give sourceTraceId to make retries safe; scope team shares it with the other internal agents.",
    input: memoryContracts.write.body,
    run: async (caller, args) => {
      const { created: _created, ...result } = await writeMemory(caller, "me", args);
      return result;
    },
  }),
  tool(documentContracts.get, {
    name: "scratchpad_read",
    description: "Read your scratchpad (the WORKING document, ≤ 2000 characters): what you are doing right now. Read it at the start of a task; note its version.",
    input: noInput,
    run: (caller) => getDocument(caller, "me", "working", {}),
  }),
  tool(documentContracts.put, {
    name: "scratchpad_update",
    description:
      "Replace your scratchpad (≤ 2000 characters) when your current task, plan or open questions change. Pass expectedVersion " +
      "(the version you read) so a concurrent change is never overwritten.",
    input: documentWrite,
    run: (caller, args) => putDocument(caller, "me", "working", args),
  }),
  tool(documentContracts.get, {
    name: "soul_read",
    description: "Read your SOUL document: who you are, your voice and your standing rules.",
    input: noInput,
    run: (caller) => getDocument(caller, "me", "soul", {}),
  }),
  tool(documentContracts.put, {
    name: "soul_write",
    description: "Replace your SOUL document. Only when your identity or standing rules truly change; pass expectedVersion.",
    input: documentWrite,
    run: (caller, args) => putDocument(caller, "me", "soul", args),
  }),
  tool(documentContracts.get, {
    name: "daily_read",
    description: "Read a daily note (default: today) — the running log of what happened that day.",
    input: z.object({ date: isoDate.optional().describe("YYYY-MM-DD; default today") }).strict(),
    run: (caller, args) => getDocument(caller, "me", "daily", args),
  }),
  tool(documentContracts.put, {
    name: "daily_write",
    description: "Write today's daily note (or the day given): append what happened by sending the whole note back with expectedVersion.",
    input: documentWrite.extend({ date: isoDate.optional().describe("YYYY-MM-DD; default today") }).strict(),
    run: (caller, args) => putDocument(caller, "me", "daily", args),
  }),
  tool(memoryContracts.boot, {
    name: "boot",
    description:
      "Load everything you need at the start of a session: your SOUL, scratchpad, today's note, core memories, pending " +
      "commitments, recent work, the locked constants and (internal agents) the team's highlights. Call it once when you start.",
    input: noInput,
    run: (caller) => getBootContext(caller, "me"),
  }),
  tool(retrievalContracts.context, {
    name: "context",
    description:
      "Get your assembled system prompt for a topic: SOUL, scratchpad, the current situation across the team, the memories most " +
      "relevant to the topic plus the most recent, and the locked constants. Use it before starting work on a new topic.",
    input: z.object({ topic: z.string().trim().max(2000).optional().describe("what you are about to work on") }).strict(),
    run: (caller, args) => assembleContext(caller, "me", args),
  }),
  tool(knowledgeContracts.list, {
    name: "kb_search",
    description:
      "Search the HQ knowledge base (procedures, best practices, templates, skill docs, escalation and tool guides) for how to " +
      "do something. Hybrid full-text and semantic search.",
    input: z
      .object({
        q: z.string().trim().min(1).max(500).describe("what you are looking for"),
        category: knowledgeCategory.optional(),
        tag: z.string().max(40).optional(),
        limit: z.number().int().min(1).max(50).optional(),
      })
      .strict(),
    run: (caller, args) => listKnowledge(caller, listKnowledgeQuery.parse(args)),
  }),
  tool(knowledgeContracts.create, {
    name: "kb_write",
    description:
      "Add an entry to the HQ knowledge base when you have a procedure or practice every agent should follow. Search first: a " +
      "published title that already exists is refused.",
    input: knowledgeContracts.create.body,
    run: (caller, args) => createKnowledge(caller, args),
  }),
  tool(reviewContracts.createSuggestion, {
    name: "suggest_fact",
    description:
      "Propose a fact about a contact (preferred time, address, budget…) for the memory manager to approve. Never personal data " +
      "such as SSNs, card numbers, health, religion or politics (refused at once); confidence below 0.7 is rejected.",
    input: reviewContracts.createSuggestion.body,
    run: (caller, args) => createSuggestion(caller, args),
  }),
  tool(reviewContracts.lookupContact, {
    name: "contact_lookup",
    description: "Look up a contact and their approved facts by phone number or email before talking to them.",
    input: reviewContracts.lookupContact.query,
    run: (caller, args) => lookupContact(caller, args),
  }),
  tool(memoryContracts.createInteraction, {
    name: "log_interaction",
    description:
      "Record one message of a conversation (inbound or outbound, with its channel and contact) so it can be recalled later.",
    input: memoryContracts.createInteraction.body,
    run: (caller, args) => createInteraction(caller, args),
  }),
  tool(memoryContracts.createInteractionBatch, {
    name: "log_conversation",
    description:
      "Record a whole transcript (1–500 messages, in the order they were said) in one call: give each message an externalId so a retry stores nothing twice, and a conversationId for the thread. All or nothing.",
    input: memoryContracts.createInteractionBatch.body,
    run: (caller, args) => createInteractionBatch(caller, args),
  }),
  tool(memoryContracts.list, {
    name: "decisions",
    description:
      "List your recorded decisions (learning memories of category decision), newest first, to find ones whose outcome you " +
      "should now record or to recall why you decided something.",
    input: z
      .object({
        status: z.enum(["active", "resolved", "archived", "all"]).optional(),
        q: z.string().trim().min(1).max(200).optional().describe("full-text filter"),
        limit: z.number().int().min(1).max(200).optional(),
      })
      .strict(),
    run: (caller, args) =>
      listMemories(caller, "me", { ...args, status: args.status ?? "active", limit: args.limit ?? 50, offset: 0, tier: "learning", category: "decision" }),
  }),
  tool(memoryContracts.outcome, {
    name: "record_outcome",
    description:
      "Record how a decision turned out (result, success, notes) once you know. It is stored on the decision and as a linked " +
      "learning memory, so the team learns which decisions work.",
    input: outcomeBody.extend({ decisionId: z.uuid().describe("the decision memory's id") }).strict(),
    run: (caller, { decisionId, ...body }) => recordOutcome(caller, decisionId, body),
  }),
  tool(agentLogContracts.createNote, {
    name: "note",
    description:
      "Leave a short note for the team that matters only for the next day (it expires after 24 hours), e.g. 'caller will ring back at 3pm'.",
    input: agentLogContracts.createNote.body,
    run: (caller, args) => createNote(caller, args),
  }),
  tool(lifecycleContracts.raiseEscalation, {
    name: "escalate",
    description:
      "Raise an escalation to HQ when you cannot resolve something yourself (a customer problem, a broken tool, a question " +
      "outside what you may decide) and need HQ to step in. Give the question, a severity (low, medium, high, critical) and " +
      "the context: what happened and what you already tried. The answer may already contain a known fix (knownFix) captured " +
      "when HQ resolved the same issue before: try it first. similarKnowledge lists related knowledge base entries.",
    input: lifecycleContracts.raiseEscalation.body,
    run: (caller, args) => raiseEscalation(caller, args),
  }),
  tool(lifecycleContracts.listEscalations, {
    name: "escalations",
    description:
      "List escalations raised to HQ (a field agent sees its own client's only): open ones first, the most severe and oldest " +
      "first, with counts. Use status 'open' to find the ones still waiting for a fix.",
    input: lifecycleContracts.listEscalations.query,
    run: (caller, args) => listEscalations(caller, args),
  }),
  tool(lifecycleContracts.resolveEscalation, {
    name: "escalation_resolve",
    description:
      "Resolve an open escalation with the fix that was given (resolution, required). The fix is published to the knowledge " +
      "base linked to the escalation — written from the question and resolution, or pass knowledge {title, content, category, " +
      "tags} to word the entry yourself, or knowledge: false for a one-off with nothing to reuse — so a later similar escalation " +
      "is answered with it as knownFix.",
    input: lifecycleContracts.resolveEscalation.body.extend({ escalationId: z.uuid().describe("the escalation to resolve") }),
    run: (caller, { escalationId, ...body }) => resolveEscalation(caller, escalationId, body),
  }),
];

/** The tools this agent may use: those whose endpoint its role may call (isolated agents: none). */
export function toolsFor(caller: AgentCaller): McpTool[] {
  return MCP_TOOLS.filter((t) => t.contract.permission !== null && can(caller, t.contract.permission));
}
