import type { TriggerLevel, TriggerVariant } from "../smart-trigger/types";

/** Where a retrieval can look (local first, then shared knowledge). */
export const RETRIEVAL_SCOPES = ["memories", "documents", "interactions", "team", "knowledge"] as const;
export type RetrievalScope = (typeof RETRIEVAL_SCOPES)[number];

/** the agent's own memory: its private memories, its documents and its (or its client's) conversations */
const LOCAL: RetrievalScope[] = ["memories", "documents", "interactions"];

/**
 * The scopes a smart-trigger level calls for. Levels are cumulative: `shared` (internal agents:
 * the team's shared memories) and `hq` (field agents: the HQ knowledge base) search the agent's own
 * memory too, local first.
 */
export function scopesForLevel(level: TriggerLevel, variant: TriggerVariant): RetrievalScope[] {
  switch (level) {
    case "none":
      return [];
    case "local":
      return [...LOCAL];
    case "shared":
      // field agents have no shared brain, whatever the level says
      return variant === "internal" ? [...LOCAL, "team"] : [...LOCAL];
    case "hq":
      return [...LOCAL, "knowledge"];
  }
}

/**
 * The scopes an agent's role may read (the tables' read policies): its own memories and documents
 * and the published knowledge base always; conversations only as a manager or orchestrator (a
 * field agent its own client's); the team's shared memories only as an internal agent.
 */
export function readableScopes(agent: { kind: TriggerVariant; role: string }): RetrievalScope[] {
  return RETRIEVAL_SCOPES.filter((s) => {
    if (s === "interactions") return agent.role === "manager" || agent.role === "orchestrator";
    if (s === "team") return agent.kind === "internal";
    return true;
  });
}

/**
 * The level that explicit scopes amount to, for the log and the response: the widest one named.
 * `team` is the shared level, `knowledge` the HQ level.
 */
export function levelForScopes(scopes: readonly RetrievalScope[]): TriggerLevel {
  if (scopes.includes("team")) return "shared";
  if (scopes.includes("knowledge")) return "hq";
  return scopes.length ? "local" : "none";
}

/** Scopes in their canonical order (local first), each once. */
export function normalizeScopes(scopes: readonly RetrievalScope[]): RetrievalScope[] {
  return RETRIEVAL_SCOPES.filter((s) => scopes.includes(s));
}
