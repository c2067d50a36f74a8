import type { BadgeTone } from "@/components/ui/badge";
import type { AgentKind, AgentRole, KbAccess } from "@/lib/console/types";

export const KIND_LABEL: Record<AgentKind, string> = { internal: "Internal", field: "Field" };
export const KIND_TONE: Record<AgentKind, BadgeTone> = { internal: "violet", field: "blue" };

export const ROLE_LABEL: Record<AgentRole, string> = {
  manager: "Manager",
  orchestrator: "Orchestrator",
  specialist: "Specialist",
  isolated: "Isolated",
};

/** What each role may do, in one line (ARCHITECTURE.md, "Who may do what"). */
export const ROLE_HINT: Record<AgentRole, string> = {
  manager: "The memory manager: the only writer of canonical contact facts; reviews suggestions.",
  orchestrator: "Reads facts, proposes suggestions, reads and writes its own and team memory.",
  specialist: "Reads facts, proposes suggestions, writes its own and team memory and notes.",
  isolated: "No memory access at all (code, deploy and migration agents).",
};

export const KB_LABEL: Record<KbAccess, string> = { read: "Read", write: "Read & write" };

/** What an agent may do with the knowledge base: an isolated agent reads nothing of HQ's, whatever its setting. */
export const kbAccessLabel = (agent: { role: string; kbAccess: KbAccess }) => (agent.role === "isolated" ? "None" : KB_LABEL[agent.kbAccess]);

/** Why the knowledge base setting cannot be changed for this kind and role, if it cannot. */
export function kbAccessFixed(kind: string, role: string): string | null {
  if (role === "isolated") return "Isolated agents have no access to HQ memory or the knowledge base.";
  if (kind === "field") return "Field agents can only read the HQ knowledge base.";
  return null;
}

export const ROLE_OPTIONS = (Object.keys(ROLE_LABEL) as AgentRole[]).map((value) => ({ value, label: ROLE_LABEL[value] }));
export const KB_OPTIONS = (Object.keys(KB_LABEL) as KbAccess[]).map((value) => ({ value, label: KB_LABEL[value] }));
export const KIND_OPTIONS = [
  { value: "internal", label: "Internal (HQ)" },
  { value: "field", label: "Field (one client)" },
] as const;
