import type { BadgeTone } from "@/components/ui/badge";
import type { RetrievalLevel, RetrievalScope } from "@/lib/console/retrieval-types";

export const LEVEL_TONES: Record<RetrievalLevel, BadgeTone> = {
  none: "neutral",
  local: "blue",
  shared: "violet",
  hq: "amber",
};

export const LEVEL_LABELS: Record<RetrievalLevel, string> = {
  none: "none — no search",
  local: "local — own memory",
  shared: "shared — plus team knowledge",
  hq: "hq — plus the knowledge base",
};

/** chart colours per level (Tailwind slate-400, sky-500, violet-500, amber-500) */
export const LEVEL_COLORS: Record<RetrievalLevel, string> = {
  none: "#94a3b8",
  local: "#0ea5e9",
  shared: "#8b5cf6",
  hq: "#f59e0b",
};

export const SCOPE_LABELS: Record<RetrievalScope, string> = {
  memories: "Memory",
  documents: "Document",
  interactions: "Conversation",
  team: "Team knowledge",
  knowledge: "Knowledge base",
};

export const SCOPE_TONES: Record<RetrievalScope, BadgeTone> = {
  memories: "blue",
  documents: "indigo",
  interactions: "green",
  team: "violet",
  knowledge: "amber",
};

export const SCOPE_HINTS: Record<RetrievalScope, string> = {
  memories: "the agent's private memories",
  documents: "SOUL, scratchpad, daily notes",
  interactions: "its conversations (field agents: the client's)",
  team: "team-shared memories (internal agents only)",
  knowledge: "the HQ knowledge base",
};

export const TRIGGER_LABELS: Record<string, string> = {
  decision: "Decision",
  commitment: "Commitment",
  past_reference: "Past reference",
  planning: "Planning",
  correction: "Correction",
  how_to: "How-to",
  name: "Name",
  procedural: "Procedural",
  error: "Error",
  scope: "Scope",
  escalation: "Escalation",
  tool: "Tool",
};
