import { ApiError } from "@/lib/http/errors";
import type { Caller } from "./caller";

/**
 * The permission table: which callers may call which kind of route. Row-level rules (whose
 * objects, which client) are enforced again by the service layer and by Postgres RLS.
 */
const hqAny = (c: Caller) => c.type === "hq";
const hqAdmin = (c: Caller) => c.type === "hq" && c.role === "admin";
const hqEditor = (c: Caller) => c.type === "hq" && (c.role === "admin" || c.role === "curator");
const activeAgent = (c: Caller) => c.type === "agent" && c.role !== "isolated";
const internalAgent = (c: Caller) => activeAgent(c) && c.type === "agent" && c.kind === "internal";
const managerAgent = (c: Caller) => activeAgent(c) && c.type === "agent" && c.role === "manager";

export const PERMISSIONS = {
  /** any authenticated caller, including isolated agents reading their own identity */
  authenticated: () => true,
  "hq.session": hqAny,
  "clients.read": (c: Caller) => hqAny(c) || activeAgent(c),
  "clients.write": hqAdmin,
  "agents.read": () => true,
  "agents.write": hqAdmin,
  "keys.manage": hqAdmin,
  "missions.read": (c: Caller) => hqAny(c) || internalAgent(c) || activeAgent(c),
  "missions.write": hqEditor,
  "constants.read": (c: Caller) => hqAny(c) || activeAgent(c),
  "constants.write": hqAdmin,
  "audit.read": hqAny,
  "users.manage": hqAdmin,
  // memory manager: manager agents and HQ admins write canonical memory; others propose
  "contacts.read": (c: Caller) => hqAny(c) || activeAgent(c),
  "contacts.write": (c: Caller) => hqAdmin(c) || managerAgent(c),
  "contacts.opt_out": (c: Caller) => hqAdmin(c) || managerAgent(c),
  "facts.write": (c: Caller) => hqAdmin(c) || managerAgent(c),
  "relevance.write": hqAdmin,
  "suggestions.read": (c: Caller) => hqAny(c) || activeAgent(c),
  "suggestions.propose": (c: Caller) => hqEditor(c) || activeAgent(c),
  "suggestions.review": (c: Caller) => hqEditor(c) || managerAgent(c),
  "review.run": (c: Caller) => hqEditor(c) || managerAgent(c),
  "playbook.read": (c: Caller) => hqAny(c) || activeAgent(c),
  "playbook.propose": activeAgent,
  "playbook.review": hqEditor,
  "events.read": (c: Caller) => hqAny(c) || activeAgent(c),
  "events.write": activeAgent,
  "notes.read": (c: Caller) => hqAny(c) || activeAgent(c),
  "notes.write": activeAgent,
  "notes.purge": hqAdmin,
  // agent memory: an agent reaches its own; row-level rules (whose, which scope) in service and RLS
  "documents.read": (c: Caller) => hqAny(c) || activeAgent(c),
  "documents.write": (c: Caller) => hqAdmin(c) || activeAgent(c),
  "memories.read": (c: Caller) => hqAny(c) || activeAgent(c),
  "memories.write": (c: Caller) => hqAdmin(c) || activeAgent(c),
  "interactions.read": (c: Caller) => hqAny(c) || (activeAgent(c) && c.type === "agent" && (c.role === "manager" || c.role === "orchestrator")),
  "interactions.write": activeAgent,
  "embeddings.manage": hqAdmin,
  // retrieval: an agent retrieves for itself; HQ acts as a chosen agent (audited) and reads the analytics
  "retrieval.use": (c: Caller) => hqAny(c) || activeAgent(c),
  "retrieval.analytics": hqAny,
  // HQ knowledge base: everyone with memory access reads; HQ editors and internal
  // agents granted kbAccess "write" write; field agents, viewers and read-only agents never do
  "knowledge.read": (c: Caller) => hqAny(c) || activeAgent(c),
  "knowledge.write": (c: Caller) => hqEditor(c) || (internalAgent(c) && c.type === "agent" && c.kbAccess === "write"),
  // lifecycle: the consolidation (HQ admins; the scheduler acts as one), nightly reports (HQ, and an
  // agent its own), escalations (raised by non-isolated agents, resolved by whoever writes the
  // knowledge base), outcomes across agents (HQ)
  "lifecycle.consolidate": hqAdmin,
  "reports.read": (c: Caller) => hqAny(c) || activeAgent(c),
  "escalations.read": (c: Caller) => hqAny(c) || activeAgent(c),
  "escalations.raise": activeAgent,
  "escalations.resolve": (c: Caller) => hqEditor(c) || (internalAgent(c) && c.type === "agent" && c.kbAccess === "write"),
  "outcomes.read": hqAny,
  // a copy of the whole database: every client's data, so HQ admins only
  "backup.run": hqAdmin,
} satisfies Record<string, (c: Caller) => boolean>;

export type Permission = keyof typeof PERMISSIONS;

export function can(caller: Caller, permission: Permission): boolean {
  return PERMISSIONS[permission](caller);
}

export function assertCan(caller: Caller, permission: Permission): void {
  if (!can(caller, permission)) {
    throw new ApiError("forbidden", `Your role may not do this (${permission})`);
  }
}
