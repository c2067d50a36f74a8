/**
 * How audit actions read to people, and the areas the Audit page filters by. Shared by the console
 * and the CSV export; an action without a label falls back to its code made readable.
 */

export const ACTION_LABELS: Record<string, string> = {
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
  "contact.hq_erasure": "Erased an opted-out contact from HQ's rows",
  "contact.hq_mentions_kept": "Kept HQ's rows after a client's opt-out",
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
  "memory.reinforce": "Reinforced memory (repeated)",
  "document.write": "Saved agent document",
  "interaction.create": "Recorded conversation message",
  "interaction.batch": "Recorded a transcript",
  "event.create": "Logged agent event",
  "notes.create": "Left a 24-hour note",
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
  "hq_user.reinvite": "Issued a new invitation link",
  "hq_user.accept_invite": "Accepted invitation",
  "hq_user.update": "Changed HQ user",
  "hq_user.provision_supabase": "Added HQ user (Supabase sign-in)",
  "escalation.create": "Raised escalation",
  "escalation.resolve": "Resolved escalation",
  "lifecycle.consolidate": "Ran nightly consolidation",
  "retrieval.impersonate": "Tried retrieval as an agent (playground)",
  "embeddings.backfill": "Indexed items for search by meaning",
  "demo.seed": "Loaded the demo data",
  "database.backup": "Downloaded a database backup",
};

const DOCUMENT_NAMES: Record<string, string> = { soul: "SOUL", working: "scratchpad", daily: "daily note" };

/** Past tenses of the verbs action codes end in, for codes without a label of their own. */
const VERBS: Record<string, string> = {
  create: "Created", update: "Edited", delete: "Deleted", archive: "Archived", restore: "Restored", import: "Imported",
  resolve: "Resolved", approve: "Approved", reject: "Rejected", revoke: "Revoked", issue: "Issued", write: "Saved", run: "Ran",
};

/**
 * What an entry did, in words: "Saved SOUL", "Raised escalation". `details` names which document a
 * document save wrote. A code without a label reads as "Created thing" (`thing.create`), never as
 * the code itself.
 */
export function actionLabel(action: string, details?: Record<string, unknown> | null): string {
  if (action === "document.write" && typeof details?.type === "string" && DOCUMENT_NAMES[details.type]) {
    const date = details.type === "daily" && typeof details.date === "string" ? ` for ${details.date}` : "";
    return `Saved ${DOCUMENT_NAMES[details.type]}${date}`;
  }
  const known = ACTION_LABELS[action];
  if (known) return known;
  const [subject = "", verb = ""] = action.split(".");
  const thing = subject.replace(/_/g, " ").trim();
  if (VERBS[verb]) return `${VERBS[verb]} ${thing}`;
  const words = `${thing} ${verb.replace(/_/g, " ")}`.trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Filter areas: each is the action prefixes it covers (sent as `action=a,b`). */
export const AUDIT_AREAS = [
  { id: "agents", label: "Agents & keys", prefixes: ["agent", "agent_key"] },
  { id: "clients", label: "Clients", prefixes: ["client"] },
  { id: "memory", label: "Agent memory", prefixes: ["memory", "document", "notes", "event", "playbook_update", "lifecycle"] },
  { id: "conversations", label: "Conversations", prefixes: ["interaction"] },
  { id: "contacts", label: "Contacts & facts", prefixes: ["contact", "fact"] },
  { id: "review", label: "Review queue", prefixes: ["suggestion", "review"] },
  { id: "knowledge", label: "Knowledge base", prefixes: ["knowledge", "embeddings"] },
  { id: "escalations", label: "Escalations", prefixes: ["escalation"] },
  { id: "constants", label: "Locked constants", prefixes: ["locked_constant"] },
  { id: "missions", label: "Missions", prefixes: ["mission"] },
  { id: "users", label: "HQ users", prefixes: ["hq_user"] },
  { id: "retrieval", label: "Retrieval playground", prefixes: ["retrieval"] },
] as const;
