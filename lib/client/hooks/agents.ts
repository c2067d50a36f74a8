"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/api";
import { agentKeys, clientKeys } from "@/lib/client/query-keys";
import type { Agent, AgentKey, Client } from "@/lib/client/types";

export function useAgents() {
  return useQuery({
    queryKey: agentKeys.list(),
    queryFn: ({ signal }) => apiFetch<{ agents: Agent[] }>("/agents", { signal }).then((r) => r.agents),
  });
}

export function useAgent(id: string) {
  return useQuery({
    queryKey: agentKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<{ agent: Agent }>(`/agents/${encodeURIComponent(id)}`, { signal }).then((r) => r.agent),
  });
}

/** The agent's keys (admin only: others get 403, so pass `enabled: false` for them). */
export function useAgentKeys(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: agentKeys.keys(id),
    queryFn: ({ signal }) => apiFetch<{ keys: AgentKey[] }>(`/agents/${encodeURIComponent(id)}/keys`, { signal }).then((r) => r.keys),
    enabled,
  });
}

export function useClients() {
  return useQuery({
    queryKey: clientKeys.list(),
    queryFn: ({ signal }) => apiFetch<{ clients: Client[] }>("/clients", { signal }).then((r) => r.clients),
  });
}
