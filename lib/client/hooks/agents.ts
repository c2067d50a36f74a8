"use client";

import { useQuery } from "@tanstack/react-query";
import { apiCall } from "@/lib/client/api";
import { agentKeys, clientKeys } from "@/lib/client/query-keys";
import { agentContracts } from "@/lib/agents/contracts";
import { clientContracts } from "@/lib/clients/contracts";

export function useAgents() {
  return useQuery({
    queryKey: agentKeys.list(),
    queryFn: ({ signal }) => apiCall(agentContracts.list, {}, { signal }).then((r) => r.agents),
  });
}

export function useAgent(id: string) {
  return useQuery({
    queryKey: agentKeys.detail(id),
    queryFn: ({ signal }) => apiCall(agentContracts.get, { params: { agentId: id } }, { signal }).then((r) => r.agent),
  });
}

/** The agent's keys (admin only: others get 403, so pass `enabled: false` for them). */
export function useAgentKeys(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: agentKeys.keys(id),
    queryFn: ({ signal }) => apiCall(agentContracts.listKeys, { params: { agentId: id } }, { signal }).then((r) => r.keys),
    enabled,
  });
}

export function useClients() {
  return useQuery({
    queryKey: clientKeys.list(),
    queryFn: ({ signal }) => apiCall(clientContracts.list, {}, { signal }).then((r) => r.clients),
  });
}
