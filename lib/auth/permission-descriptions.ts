import type { Permission } from "./permissions";

// Who may call, in words, for each permission of the table in ./permissions.ts (a unit test checks
// both name the same permissions). "Agents" are callers with their own agent key; isolated agents
// are left out wherever the table says activeAgent. HQ admins include the ADMIN_API_KEY.
// Importable from the browser: the OpenAPI document and the console's Docs page show these.

const AGENTS = "agents with their own key (not isolated ones)";
const HQ_ALL = "every HQ user (admins, curators, viewers)";
const HQ_ADMINS = "HQ admins";
const HQ_EDITORS = "HQ admins and curators";
const MANAGERS = "manager agents";
const KB_WRITERS = "internal agents granted knowledge-base write access";

const sentence = (...who: string[]) => {
  const text = who.join("; ");
  return text.charAt(0).toUpperCase() + text.slice(1);
};

export const PERMISSION_DESCRIPTIONS: Record<Permission, string> = {
  authenticated: "Anyone with a key or an HQ session, isolated agents included",
  "hq.session": sentence(HQ_ALL),
  "clients.read": sentence(AGENTS, HQ_ALL),
  "clients.write": sentence(HQ_ADMINS),
  "agents.read": "Anyone with a key or an HQ session, isolated agents included (an agent sees what its role allows)",
  "agents.write": sentence(HQ_ADMINS),
  "keys.manage": sentence(HQ_ADMINS),
  "missions.read": sentence(AGENTS, HQ_ALL),
  "missions.write": sentence(HQ_EDITORS),
  "constants.read": sentence(AGENTS, HQ_ALL),
  "constants.write": sentence(HQ_ADMINS),
  "audit.read": sentence(HQ_ALL),
  "users.manage": sentence(HQ_ADMINS),
  "contacts.read": sentence(AGENTS, HQ_ALL),
  "contacts.write": sentence(MANAGERS, HQ_ADMINS),
  "contacts.opt_out": sentence(MANAGERS, HQ_ADMINS),
  "facts.write": sentence(MANAGERS, HQ_ADMINS),
  "relevance.write": sentence(HQ_ADMINS),
  "suggestions.read": sentence(AGENTS, HQ_ALL),
  "suggestions.propose": sentence(AGENTS, HQ_EDITORS),
  "suggestions.review": sentence(MANAGERS, HQ_EDITORS),
  "review.run": sentence(MANAGERS, HQ_EDITORS),
  "playbook.read": sentence(AGENTS, HQ_ALL),
  "playbook.propose": sentence(AGENTS),
  "playbook.review": sentence(HQ_EDITORS),
  "events.read": sentence(AGENTS, HQ_ALL),
  "events.write": sentence(AGENTS),
  "notes.read": sentence(AGENTS, HQ_ALL),
  "notes.write": sentence(AGENTS),
  "notes.purge": sentence(HQ_ADMINS),
  "documents.read": sentence(`${AGENTS}, for their own documents`, HQ_ALL),
  "documents.write": sentence(`${AGENTS}, for their own documents`, HQ_ADMINS),
  "memories.read": sentence(`${AGENTS}, for their own memories`, HQ_ALL),
  "memories.write": sentence(`${AGENTS}, for their own memories`, HQ_ADMINS),
  "interactions.read": sentence("manager and orchestrator agents", HQ_ALL),
  "interactions.write": sentence(AGENTS),
  "embeddings.manage": sentence(HQ_ADMINS),
  "retrieval.use": sentence(`${AGENTS}, for themselves`, `${HQ_ALL}, acting as a chosen agent (audited)`),
  "retrieval.analytics": sentence(HQ_ALL),
  "knowledge.read": sentence(AGENTS, HQ_ALL),
  "knowledge.write": sentence(KB_WRITERS, HQ_EDITORS),
  "lifecycle.consolidate": sentence(HQ_ADMINS),
  "reports.read": sentence(`${AGENTS}, for their own reports`, HQ_ALL),
  "escalations.read": sentence(AGENTS, HQ_ALL),
  "escalations.raise": sentence(AGENTS),
  "escalations.resolve": sentence(KB_WRITERS, HQ_EDITORS),
  "outcomes.read": sentence(HQ_ALL),
  "backup.run": sentence(HQ_ADMINS),
};

/** Who may call an endpoint guarded by `permission` (null: a public endpoint), as a sentence. */
export function whoMayCall(permission: Permission | null): string {
  return permission === null ? "Anyone: no key or session needed" : `${PERMISSION_DESCRIPTIONS[permission]}.`;
}
