/**
 * TanStack Query key factories, one per domain. Invalidate by the broadest key that covers a change
 * (`queryClient.invalidateQueries({ queryKey: agentKeys.all })`).
 *
 * To add a domain, append a factory following the same shape:
 *   export const knowledgeKeys = {
 *     all: ["knowledge"] as const,
 *     list: (filters: {...}) => [...knowledgeKeys.all, "list", filters] as const,
 *     detail: (id: string) => [...knowledgeKeys.all, "detail", id] as const,
 *   };
 */

export const sessionKeys = {
  all: ["session"] as const,
  current: () => [...sessionKeys.all, "current"] as const,
};

export const agentKeys = {
  all: ["agents"] as const,
  list: () => [...agentKeys.all, "list"] as const,
  detail: (id: string) => [...agentKeys.all, "detail", id] as const,
  keys: (id: string) => [...agentKeys.all, "detail", id, "keys"] as const,
};

export const clientKeys = {
  all: ["clients"] as const,
  list: () => [...clientKeys.all, "list"] as const,
  detail: (id: string) => [...clientKeys.all, "detail", id] as const,
};

export const constantKeys = {
  all: ["locked-constants"] as const,
  list: () => [...constantKeys.all, "list"] as const,
};

export const auditKeys = {
  all: ["audit"] as const,
  list: (filters: { action?: string; actorType?: string; actor?: string; from?: string; to?: string; limit?: number } = {}) =>
    [...auditKeys.all, "list", filters] as const,
};

export const userKeys = {
  all: ["hq-users"] as const,
  list: () => [...userKeys.all, "list"] as const,
};

export const missionKeys = {
  all: ["missions"] as const,
  list: (filters: { status?: string } = {}) => [...missionKeys.all, "list", filters] as const,
};

export const suggestionKeys = {
  all: ["suggestions"] as const,
  list: (filters: { status?: string; contactId?: string; clientId?: string; q?: string; verdict?: string } = {}) => [...suggestionKeys.all, "list", filters] as const,
  count: (filters: { status?: string } = {}) => [...suggestionKeys.all, "count", filters] as const,
};

export const contactKeys = {
  all: ["contacts"] as const,
  list: (filters: { clientId?: string; q?: string; includeOptedOut?: boolean; hqErasurePending?: boolean } = {}) => [...contactKeys.all, "list", filters] as const,
  detail: (id: string) => [...contactKeys.all, "detail", id] as const,
  history: (id: string) => [...contactKeys.all, "detail", id, "history"] as const,
  factKeys: (clientId: string) => [...contactKeys.all, "fact-keys", clientId] as const,
};

// agent memory
export const documentKeys = {
  all: ["agent-documents"] as const,
  agent: (agentId: string) => [...documentKeys.all, agentId] as const,
  detail: (agentId: string, type: string, date?: string) => [...documentKeys.all, agentId, type, date ?? null] as const,
  dailyList: (agentId: string) => [...documentKeys.all, agentId, "daily-list"] as const,
};

export const memoryKeys = {
  all: ["memories"] as const,
  agent: (agentId: string) => [...memoryKeys.all, agentId] as const,
  list: (agentId: string, filters: Record<string, string | number | undefined> = {}) => [...memoryKeys.all, agentId, "list", filters] as const,
};

export const interactionKeys = {
  all: ["interactions"] as const,
  list: (filters: { agentId?: string; contactId?: string; channel?: string; q?: string } = {}) => [...interactionKeys.all, "list", filters] as const,
  conversations: (filters: { agentId?: string; contactId?: string; channel?: string }) => [...interactionKeys.all, "conversations", filters] as const,
  thread: (agentId: string, conversation: string) => [...interactionKeys.all, "thread", agentId, conversation] as const,
};

export const embeddingKeys = {
  all: ["embeddings"] as const,
  backfill: () => [...embeddingKeys.all, "backfill"] as const,
};

export const retrievalKeys = {
  all: ["retrieval"] as const,
  stats: () => [...retrievalKeys.all, "stats"] as const,
  statsFor: (days: number) => [...retrievalKeys.stats(), days] as const,
  context: (agentId: string, topic: string) => [...retrievalKeys.all, "context", agentId, topic] as const,
};

// HQ knowledge base
export const knowledgeKeys = {
  all: ["knowledge"] as const,
  list: (filters: { q?: string; category?: string; tag?: string; status?: string } = {}) => [...knowledgeKeys.all, "list", filters] as const,
  detail: (id: string) => [...knowledgeKeys.all, "detail", id] as const,
  versions: (id: string) => [...knowledgeKeys.all, "detail", id, "versions"] as const,
  tags: () => [...knowledgeKeys.all, "tags"] as const,
};

// lifecycle: escalations, nightly reports, outcomes across agents
export const escalationKeys = {
  all: ["escalations"] as const,
  list: (filters: { status?: string; severity?: string; clientId?: string; knowledgeEntryId?: string } = {}) => [...escalationKeys.all, "list", filters] as const,
  detail: (id: string) => [...escalationKeys.all, "detail", id] as const,
  similar: (id: string) => [...escalationKeys.all, "similar", id] as const,
  count: () => [...escalationKeys.all, "count"] as const,
  draft: (id: string, resolution: string) => [...escalationKeys.all, "draft", id, resolution] as const,
};

export const reportKeys = {
  all: ["agent-reports"] as const,
  list: (agentId: string) => [...reportKeys.all, agentId, "list"] as const,
  detail: (agentId: string, date: string) => [...reportKeys.all, agentId, date] as const,
};

export const outcomeKeys = {
  all: ["outcomes"] as const,
  overview: () => [...outcomeKeys.all, "overview"] as const,
};

export const docsKeys = {
  all: ["docs"] as const,
  openapi: () => [...docsKeys.all, "openapi"] as const,
};

export const searchKeys = {
  all: ["search"] as const,
  search: (q: string) => [...searchKeys.all, q] as const,
};
