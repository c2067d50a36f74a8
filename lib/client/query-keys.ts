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
  list: (filters: { action?: string; limit?: number } = {}) => [...auditKeys.all, "list", filters] as const,
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
  list: (filters: { status?: string; contactId?: string; clientId?: string } = {}) => [...suggestionKeys.all, "list", filters] as const,
};

export const contactKeys = {
  all: ["contacts"] as const,
  list: (filters: { clientId?: string; q?: string; includeOptedOut?: boolean } = {}) => [...contactKeys.all, "list", filters] as const,
  detail: (id: string) => [...contactKeys.all, "detail", id] as const,
  history: (id: string) => [...contactKeys.all, "detail", id, "history"] as const,
  factKeys: (clientId: string) => [...contactKeys.all, "fact-keys", clientId] as const,
};
