/**
 * How audit actions read to people, and the areas the Audit page filters by. Shared by the console
 * and the CSV export; an action without a label falls back to its code made readable.
 */

const ACTION_LABELS: Record<string, string> = {
  "agent.create": "Created agent",
  "agent.update": "Edited agent",
  "agent_key.issue": "Issued API key",
  "agent_key.revoke": "Revoked API key",
  "client.create": "Created client",
  "client.update": "Edited client",
  "client.fact_keys": "Changed allowed fact keys",
  "contact.create": "Added contact",
  "contact.update": "Edited contact",
  "contact.opt_out": "Opted contact out (data erased)",
  "fact.write": "Wrote fact",
  "fact.refused": "Refused fact",
  "suggestion.create": "Suggested fact",
  "suggestion.refused": "Refused suggestion (personal data)",
  "suggestion.approve": "Approved suggestion",
  "suggestion.supersede": "Approved suggestion (replaced fact)",
  "suggestion.reject": "Rejected suggestion",
  "suggestion.approve_refused": "Approval refused",
  "suggestion.auto_approve": "Auto-approved suggestion",
  "suggestion.auto_supersede": "Auto-approved suggestion (replaced fact)",
  "suggestion.auto_reject": "Auto-rejected suggestion",
  "review.run": "Ran memory manager review",
  "memory.create": "Wrote memory",
  "memory.update": "Edited memory",
  "memory.outcome": "Recorded decision outcome",
  "memory.archive_over_cap": "Archived memories over the cap",
  "document.write": "Saved agent document",
  "interaction.create": "Recorded conversation message",
  "interaction.batch": "Recorded a transcript",
  "event.create": "Logged agent event",
  "notes.create": "Wrote working note",
  "notes.purge": "Purged expired notes",
  "playbook_update.create": "Proposed playbook update",
  "playbook_update.accept": "Accepted playbook update",
  "playbook_update.reject": "Rejected playbook update",
  "knowledge.create": "Created knowledge entry",
  "knowledge.update": "Edited knowledge entry",
  "knowledge.archive": "Archived knowledge entry",
  "knowledge.unarchive": "Republished knowledge entry",
  "knowledge.restore": "Restored an earlier version",
  "knowledge.import": "Imported knowledge",
  "locked_constant.create": "Set locked constant",
  "locked_constant.update": "Changed locked constant",
  "locked_constant.delete": "Removed locked constant",
  "mission.create": "Created mission",
  "mission.update": "Edited mission",
  "hq_user.setup_first_admin": "Set up HQ (first admin)",
  "hq_user.invite": "Invited HQ user",
  "hq_user.accept_invite": "Accepted invitation",
  "hq_user.update": "Changed HQ user",
  "retrieval.impersonate": "Tried retrieval as an agent (playground)",
  "embeddings.backfill": "Indexed items for search by meaning",
  "demo.seed": "Loaded the demo data",
  "database.backup": "Downloaded a database backup",
};

export function actionLabel(action: string): string {
  const known = ACTION_LABELS[action];
  if (known) return known;
  const words = action.replace(/[._]/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Filter areas: each is the action prefixes it covers (sent as `action=a,b`). */
export const AUDIT_AREAS = [
  { id: "agents", label: "Agents & keys", prefixes: ["agent", "agent_key"] },
  { id: "clients", label: "Clients", prefixes: ["client"] },
  { id: "memory", label: "Agent memory", prefixes: ["memory", "document", "notes", "event", "playbook_update"] },
  { id: "conversations", label: "Conversations", prefixes: ["interaction"] },
  { id: "contacts", label: "Contacts & facts", prefixes: ["contact", "fact"] },
  { id: "review", label: "Review queue", prefixes: ["suggestion", "review"] },
  { id: "knowledge", label: "Knowledge base", prefixes: ["knowledge", "embeddings"] },
  { id: "constants", label: "Locked constants", prefixes: ["locked_constant"] },
  { id: "missions", label: "Missions", prefixes: ["mission"] },
  { id: "users", label: "HQ users", prefixes: ["hq_user"] },
  { id: "retrieval", label: "Retrieval playground", prefixes: ["retrieval"] },
] as const;
