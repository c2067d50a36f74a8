import { z } from "zod";
import { createAgentBody, createKeyBody, updateAgentBody } from "@/lib/agents/schemas";
import { exportAuditQuery, listAuditQuery } from "@/lib/audit/schemas";
import {
  acceptInviteBody,
  inviteUserBody,
  loginBody,
  magicLinkBody,
  oauthQuery,
  setupBody,
  supabaseCallbackQuery,
  updateUserBody,
} from "@/lib/auth/schemas";
import type { Permission } from "@/lib/auth/permissions";
import { createClientBody, updateClientBody } from "@/lib/clients/schemas";
import {
  createKnowledgeBody,
  importKnowledgeBody,
  listKnowledgeQuery,
  restoreKnowledgeBody,
  updateKnowledgeBody,
} from "@/lib/knowledge/schemas";
import { putConstantBody } from "@/lib/locked-constants/schemas";
import { getDocumentQuery, listDailyQuery, putDocumentBody } from "@/lib/documents/schemas";
import { runBackfillBody } from "@/lib/embeddings/schemas";
import {
  createInteractionBody,
  createMemoryBody,
  listInteractionsQuery,
  listMemoriesQuery,
  outcomeBody,
  updateMemoryBody,
} from "@/lib/memories/schemas";
import {
  consolidateBody,
  createEscalationBody,
  listEscalationsQuery,
  listReportsQuery,
  outcomesQuery,
  resolveEscalationBody,
} from "@/lib/lifecycle/schemas";
import { createMissionBody, listMissionsQuery, updateMissionBody } from "@/lib/missions/schemas";
import { briefingQuery, contextQuery, retrievalStatsQuery, retrieveBody, triggerBody } from "@/lib/retrieval/schemas";
import {
  createEventBody,
  createNoteBody,
  createPlaybookUpdateBody,
  listEventsQuery,
  listNotesQuery,
  listPlaybookUpdatesQuery,
  purgeNotesBody,
  reviewPlaybookUpdateBody,
} from "@/lib/agent-log/schemas";
import {
  bulkReviewBody,
  createContactBody,
  createSuggestionBody,
  factHistoryQuery,
  factKeysBody,
  listContactsQuery,
  listSuggestionsQuery,
  lookupContactQuery,
  putFactBody,
  reviewSuggestionBody,
  runReviewBody,
  updateContactBody,
} from "@/lib/review/schemas";

export interface EndpointDoc {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI path, `{param}` style */
  path: string;
  summary: string;
  permission: Permission | null;
  body?: z.ZodType;
  query?: z.ZodType;
  success?: number;
}

/**
 * Every /api route with the zod schemas its handler parses. The OpenAPI document is generated from
 * this list, and a unit test checks that it names every route file and method, so the two stay in step.
 */
export const ENDPOINTS: EndpointDoc[] = [
  { method: "GET", path: "/api/health", summary: "Liveness and database transport", permission: null },
  { method: "GET", path: "/api/v1/openapi.json", summary: "This document", permission: null },
  { method: "GET", path: "/api/v1/auth/session", summary: "Current HQ user and whether setup is needed", permission: null },
  { method: "POST", path: "/api/v1/auth/setup", summary: "Create the first HQ admin", permission: null, body: setupBody, success: 201 },
  { method: "POST", path: "/api/v1/auth/login", summary: "Sign in (session cookie)", permission: null, body: loginBody },
  { method: "POST", path: "/api/v1/auth/logout", summary: "Sign out", permission: null },
  { method: "POST", path: "/api/v1/auth/accept-invite", summary: "Accept an invitation and set a password", permission: null, body: acceptInviteBody },
  { method: "POST", path: "/api/v1/auth/supabase/password", summary: "Sign in through Supabase Auth with email and password (when configured; 403 with details.reason for users HQ does not map)", permission: null, body: loginBody },
  { method: "POST", path: "/api/v1/auth/supabase/magic-link", summary: "Email a Supabase Auth sign-in link (same answer for unknown addresses)", permission: null, body: magicLinkBody },
  { method: "GET", path: "/api/v1/auth/supabase/oauth", summary: "Start an OAuth sign-in at Supabase (303 to the provider)", permission: null, query: oauthQuery, success: 303 },
  { method: "GET", path: "/api/v1/auth/supabase/callback", summary: "Where magic links and OAuth sign-ins return (303 to the console or the refusal page)", permission: null, query: supabaseCallbackQuery, success: 303 },
  { method: "GET", path: "/api/v1/hq-users", summary: "List HQ users", permission: "users.manage" },
  { method: "POST", path: "/api/v1/hq-users", summary: "Invite an HQ user", permission: "users.manage", body: inviteUserBody, success: 201 },
  { method: "PATCH", path: "/api/v1/hq-users/{id}", summary: "Change role, name or disable an HQ user", permission: "users.manage", body: updateUserBody },
  { method: "GET", path: "/api/v1/clients", summary: "List clients", permission: "clients.read" },
  { method: "POST", path: "/api/v1/clients", summary: "Create a client", permission: "clients.write", body: createClientBody, success: 201 },
  { method: "GET", path: "/api/v1/clients/{id}", summary: "Get a client", permission: "clients.read" },
  { method: "PATCH", path: "/api/v1/clients/{id}", summary: "Update a client", permission: "clients.write", body: updateClientBody },
  { method: "GET", path: "/api/v1/agents", summary: "List agents", permission: "agents.read" },
  { method: "POST", path: "/api/v1/agents", summary: "Create an agent", permission: "agents.write", body: createAgentBody, success: 201 },
  { method: "GET", path: "/api/v1/agents/{agentId}", summary: "Get an agent (`me` for the caller)", permission: "agents.read" },
  { method: "PATCH", path: "/api/v1/agents/{agentId}", summary: "Update an agent", permission: "agents.write", body: updateAgentBody },
  { method: "GET", path: "/api/v1/agents/{agentId}/keys", summary: "List an agent's keys", permission: "keys.manage" },
  { method: "POST", path: "/api/v1/agents/{agentId}/keys", summary: "Issue a key (shown once)", permission: "keys.manage", body: createKeyBody, success: 201 },
  { method: "DELETE", path: "/api/v1/agents/{agentId}/keys/{keyId}", summary: "Revoke a key", permission: "keys.manage" },
  { method: "GET", path: "/api/v1/missions", summary: "List missions", permission: "missions.read", query: listMissionsQuery },
  { method: "POST", path: "/api/v1/missions", summary: "Create a mission", permission: "missions.write", body: createMissionBody, success: 201 },
  { method: "PATCH", path: "/api/v1/missions/{id}", summary: "Update a mission", permission: "missions.write", body: updateMissionBody },
  { method: "GET", path: "/api/v1/locked-constants", summary: "List locked constants", permission: "constants.read" },
  { method: "PUT", path: "/api/v1/locked-constants/{key}", summary: "Create or change a locked constant", permission: "constants.write", body: putConstantBody },
  { method: "DELETE", path: "/api/v1/locked-constants/{key}", summary: "Delete a locked constant", permission: "constants.write" },
  { method: "GET", path: "/api/v1/audit", summary: "Audit log, with target names (filters: action prefixes, actor, time range)", permission: "audit.read", query: listAuditQuery },
  { method: "GET", path: "/api/v1/audit/export", summary: "The filtered audit log as CSV", permission: "audit.read", query: exportAuditQuery },
  // agent memory (issue 3)
  { method: "GET", path: "/api/v1/agents/{agentId}/documents/{type}", summary: "Read SOUL, WORKING or a daily note (never written: empty, version 0)", permission: "documents.read", query: getDocumentQuery },
  { method: "PUT", path: "/api/v1/agents/{agentId}/documents/{type}", summary: "Write a document (409 on a stale expectedVersion; working ≤ 2000 characters)", permission: "documents.write", body: putDocumentBody },
  { method: "GET", path: "/api/v1/agents/{agentId}/daily", summary: "Dates of the agent's daily notes", permission: "documents.read", query: listDailyQuery },
  { method: "GET", path: "/api/v1/agents/{agentId}/boot", summary: "Boot context: soul, scratchpad, today's note, core, pending, recent, locked constants, team highlights", permission: "memories.read" },
  { method: "GET", path: "/api/v1/agents/{agentId}/memories", summary: "List the agent's memories", permission: "memories.read", query: listMemoriesQuery },
  { method: "POST", path: "/api/v1/agents/{agentId}/memories", summary: "memory_write (200 with deduplicated: true on a seen sourceTraceId)", permission: "memories.write", body: createMemoryBody, success: 201 },
  { method: "GET", path: "/api/v1/agents/{agentId}/export", summary: "The agent's memory/ folder as a zip", permission: "memories.read" },
  { method: "GET", path: "/api/v1/memories/{id}", summary: "Read one memory (an agent's read counts as an access)", permission: "memories.read" },
  { method: "PATCH", path: "/api/v1/memories/{id}", summary: "Edit, resolve, archive or restore a memory", permission: "memories.write", body: updateMemoryBody },
  { method: "POST", path: "/api/v1/memories/{id}/outcome", summary: "Record the outcome of a decision", permission: "memories.write", body: outcomeBody, success: 201 },
  { method: "GET", path: "/api/v1/interactions", summary: "List recorded interactions", permission: "interactions.read", query: listInteractionsQuery },
  { method: "POST", path: "/api/v1/interactions", summary: "Record an interaction (recall memory)", permission: "interactions.write", body: createInteractionBody, success: 201 },
  { method: "GET", path: "/api/v1/embeddings/backfill", summary: "Rows queued for re-embedding", permission: "embeddings.manage" },
  { method: "POST", path: "/api/v1/embeddings/backfill", summary: "Re-embed queued rows (bounded pass)", permission: "embeddings.manage", body: runBackfillBody },
  // memory manager (issue 5, seed 002)
  { method: "GET", path: "/api/v1/contacts", summary: "List contacts the caller may see", permission: "contacts.read", query: listContactsQuery },
  { method: "POST", path: "/api/v1/contacts", summary: "Create a contact (manager agents, HQ admins)", permission: "contacts.write", body: createContactBody, success: 201 },
  { method: "GET", path: "/api/v1/contacts/lookup", summary: "Contact and facts by phone (normalised) or email (case-insensitive)", permission: "contacts.read", query: lookupContactQuery },
  { method: "GET", path: "/api/v1/contacts/{id}", summary: "A contact and its current facts", permission: "contacts.read" },
  { method: "PATCH", path: "/api/v1/contacts/{id}", summary: "Update a contact's profile (manager agents, HQ admins)", permission: "contacts.write", body: updateContactBody },
  { method: "GET", path: "/api/v1/contacts/{id}/history", summary: "Every version of the contact's facts, superseded included", permission: "contacts.read", query: factHistoryQuery },
  { method: "PUT", path: "/api/v1/contacts/{id}/facts/{key}", summary: "Write a fact directly (manager agents, HQ admins; same rules as approval)", permission: "facts.write", body: putFactBody },
  { method: "POST", path: "/api/v1/contacts/{id}/opt-out", summary: "Erase the contact's personal data; keep an audit record without it", permission: "contacts.opt_out" },
  { method: "GET", path: "/api/v1/clients/{id}/fact-keys", summary: "The client's business-relevance allow-list of fact keys", permission: "contacts.read" },
  { method: "PUT", path: "/api/v1/clients/{id}/fact-keys", summary: "Replace the allow-list (empty: no list)", permission: "relevance.write", body: factKeysBody },
  { method: "GET", path: "/api/v1/suggestions", summary: "Suggestions with the current fact and source interaction", permission: "suggestions.read", query: listSuggestionsQuery },
  { method: "POST", path: "/api/v1/suggestions", summary: "Propose a fact (PII and locked constants refused at once)", permission: "suggestions.propose", body: createSuggestionBody, success: 201 },
  { method: "POST", path: "/api/v1/suggestions/{id}/review", summary: "Approve (optionally edited) or reject a suggestion", permission: "suggestions.review", body: reviewSuggestionBody },
  { method: "POST", path: "/api/v1/suggestions/bulk-review", summary: "One decision for many suggestions", permission: "suggestions.review", body: bulkReviewBody },
  { method: "POST", path: "/api/v1/review/run", summary: "The manager pass over pending suggestions", permission: "review.run", body: runReviewBody },
  { method: "GET", path: "/api/v1/notes", summary: "Live agent notes (expired ones never)", permission: "notes.read", query: listNotesQuery },
  { method: "POST", path: "/api/v1/notes", summary: "Write an ephemeral agent note (expires after 24 h)", permission: "notes.write", body: createNoteBody, success: 201 },
  { method: "POST", path: "/api/v1/jobs/purge-notes", summary: "Delete expired agent notes", permission: "notes.purge", body: purgeNotesBody },
  { method: "GET", path: "/api/v1/events", summary: "The event log (tool successes and failures)", permission: "events.read", query: listEventsQuery },
  { method: "POST", path: "/api/v1/events", summary: "Log an event", permission: "events.write", body: createEventBody, success: 201 },
  { method: "GET", path: "/api/v1/playbook-updates", summary: "Script improvement ideas", permission: "playbook.read", query: listPlaybookUpdatesQuery },
  { method: "POST", path: "/api/v1/playbook-updates", summary: "Propose a script improvement (locked constants refused)", permission: "playbook.propose", body: createPlaybookUpdateBody, success: 201 },
  { method: "POST", path: "/api/v1/playbook-updates/{id}/review", summary: "Accept or reject a playbook update", permission: "playbook.review", body: reviewPlaybookUpdateBody },
  // retrieval (issue 6)
  { method: "POST", path: "/api/v1/trigger", summary: "Smart trigger: the retrieval level and the triggers that fired (HQ: as agentId)", permission: "retrieval.use", body: triggerBody },
  { method: "POST", path: "/api/v1/retrieve", summary: "Hybrid retrieval across the scopes the level calls for (or `scopes`), fused, with a context block", permission: "retrieval.use", body: retrieveBody },
  { method: "GET", path: "/api/v1/agents/{agentId}/context", summary: "Assembled system-prompt sections: soul, scratchpad, current situation, memories (3 relevant + 2 recent), locked constants", permission: "retrieval.use", query: contextQuery },
  { method: "GET", path: "/api/v1/agents/{agentId}/briefing", summary: "Situational briefing: last 6 hours of events, missions, others' conversations, pending proposals (cached 5 minutes)", permission: "retrieval.use", query: briefingQuery },
  { method: "GET", path: "/api/v1/retrieval/stats", summary: "Dashboard: retrievals per level per day, most and never retrieved knowledge, pending reviews, open items", permission: "retrieval.analytics", query: retrievalStatsQuery },
  // HQ knowledge base (issue 4, seed 000)
  { method: "GET", path: "/api/v1/knowledge", summary: "List entries, or hybrid search (full text + vector, reciprocal rank fusion) with q; an agent's search results count as accesses", permission: "knowledge.read", query: listKnowledgeQuery },
  { method: "POST", path: "/api/v1/knowledge", summary: "Create an entry (HQ admin/curator, internal agents with kbAccess write; 409 on a published title)", permission: "knowledge.write", body: createKnowledgeBody, success: 201 },
  { method: "POST", path: "/api/v1/knowledge/import", summary: "Import many entries (JSON entries and/or markdown files with front matter), reported per item: created, skipped as duplicate title, refused with reasons", permission: "knowledge.write", body: importKnowledgeBody },
  { method: "GET", path: "/api/v1/knowledge/tags", summary: "Tags in use on published entries, with counts", permission: "knowledge.read" },
  { method: "GET", path: "/api/v1/knowledge/{id}", summary: "One entry (an agent's read counts as an access)", permission: "knowledge.read" },
  { method: "PATCH", path: "/api/v1/knowledge/{id}", summary: "Edit an entry; every change keeps the previous version (409 version_conflict on a stale expectedVersion)", permission: "knowledge.write", body: updateKnowledgeBody },
  { method: "DELETE", path: "/api/v1/knowledge/{id}", summary: "Archive an entry (never deleted; withdrawn from agents)", permission: "knowledge.write" },
  { method: "GET", path: "/api/v1/knowledge/{id}/versions", summary: "Every version of an entry, oldest first; the last is current", permission: "knowledge.read" },
  { method: "POST", path: "/api/v1/knowledge/{id}/restore", summary: "Restore an earlier version as a new version", permission: "knowledge.write", body: restoreKnowledgeBody },
  // lifecycle (consolidation, nightly reports, escalations, outcomes)
  { method: "POST", path: "/api/v1/jobs/consolidate", summary: "Nightly consolidation: archive daily notes and expired learning, prune resolved working items, purge notes, promote, flag for verification, list decisions awaiting outcomes, write reports (now replays; dryRun changes nothing)", permission: "lifecycle.consolidate", body: consolidateBody },
  { method: "GET", path: "/api/v1/agents/{agentId}/reports", summary: "The agent's nightly reports, newest first", permission: "reports.read", query: listReportsQuery },
  { method: "GET", path: "/api/v1/agents/{agentId}/reports/{date}", summary: "One day's nightly report as fields and markdown", permission: "reports.read" },
  { method: "GET", path: "/api/v1/escalations", summary: "Escalations (a field agent: its own client's), with counts", permission: "escalations.read", query: listEscalationsQuery },
  { method: "POST", path: "/api/v1/escalations", summary: "Raise an escalation: similar knowledge, and a captured fix of an earlier resolved escalation first when one matches", permission: "escalations.raise", body: createEscalationBody, success: 201 },
  { method: "POST", path: "/api/v1/escalations/{id}/resolve", summary: "Resolve an escalation, optionally writing the fix to the knowledge base linked to it", permission: "escalations.resolve", body: resolveEscalationBody },
  { method: "GET", path: "/api/v1/outcomes", summary: "Decisions awaiting outcomes, success rates per agent and tag, recent outcomes", permission: "outcomes.read", query: outcomesQuery },
];

const errorSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "string" }, message: { type: "string" }, details: {} },
    },
  },
};

const toSchema = (s: z.ZodType) => z.toJSONSchema(s, { io: "input", unrepresentable: "any", target: "openapi-3.0" });

export function buildOpenApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of ENDPOINTS) {
    const params = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const queryParams = e.query ? queryParameters(e.query) : [];
    const op: Record<string, unknown> = {
      summary: e.summary,
      "x-permission": e.permission ?? "public",
      security: e.permission ? [{ bearer: [] }, { session: [] }] : [],
      parameters: [...params, ...queryParams],
      responses: {
        [String(e.success ?? 200)]: { description: "Success", content: { "application/json": { schema: {} } } },
        default: { description: "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      },
    };
    if (e.body) op.requestBody = { required: true, content: { "application/json": { schema: toSchema(e.body) } } };
    (paths[e.path] ??= {})[e.method.toLowerCase()] = op;
  }
  return {
    openapi: "3.0.3",
    info: { title: "Memory HQ API", version: "1.0.0", description: "Governed long-term memory for teams of AI agents." },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "Agent key (mhq_…) or ADMIN_API_KEY" },
        session: { type: "apiKey", in: "cookie", name: "mhq_session" },
      },
      schemas: { Error: errorSchema },
    },
    paths,
  };
}

function queryParameters(schema: z.ZodType) {
  const json = toSchema(schema) as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    schema: s,
  }));
}
