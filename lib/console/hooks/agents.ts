"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { apiCall } from "@/lib/console/api";
import { useAuditedWrite, type WriteCallbacks } from "@/lib/console/hooks/write";
import { agentKeys, clientKeys } from "@/lib/console/query-keys";
import type { Agent, Client } from "@/lib/console/types";
import { agentContracts } from "@/lib/agents/contracts";
import { clientContracts } from "@/lib/clients/contracts";
import type { WireBody } from "@/lib/http/contract";

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

type NewAgentBody = WireBody<typeof agentContracts.create>;
type AgentChanges = WireBody<typeof agentContracts.update>;

export function useCreateAgent(callbacks?: WriteCallbacks<{ agent: Agent }, NewAgentBody>) {
  return useAuditedWrite(
    (body: NewAgentBody) => apiCall(agentContracts.create, { body }),
    () => [agentKeys.all],
    callbacks,
  );
}

/** Edits the agent (name, role, access, description, or `disabled`). */
export function useUpdateAgent(agentId: string, callbacks?: WriteCallbacks<{ agent: Agent }, AgentChanges>) {
  return useAuditedWrite(
    (body: AgentChanges) => apiCall(agentContracts.update, { params: { agentId }, body }),
    () => [agentKeys.all],
    callbacks,
  );
}

export function useSetAgentDisabled(agentId: string) {
  return useAuditedWrite(
    (value: boolean) => apiCall(agentContracts.update, { params: { agentId }, body: { disabled: value } }),
    () => [agentKeys.all],
  );
}

type IssuedKey = Awaited<ReturnType<typeof issueKey>>;
const issueKey = (agentId: string, body: { label?: string }) => apiCall(agentContracts.issueKey, { params: { agentId }, body });

export function useIssueAgentKey(agentId: string, callbacks?: WriteCallbacks<IssuedKey, { label?: string }>) {
  return useAuditedWrite((body: { label?: string }) => issueKey(agentId, body), () => [agentKeys.keys(agentId)], callbacks);
}

export function useRevokeAgentKey(agentId: string) {
  return useAuditedWrite(
    (keyId: string) => apiCall(agentContracts.revokeKey, { params: { agentId, keyId } }),
    () => [agentKeys.keys(agentId)],
  );
}

/** Calls the API with a freshly issued key alone, as an agent would: the answer names the agent it belongs to. Reads only. */
export function useTestAgentKey(issuedKey: string) {
  return useMutation({
    mutationFn: () => apiCall(agentContracts.get, { params: { agentId: "me" } }, { headers: { authorization: `Bearer ${issuedKey}` } }),
  });
}

/** Creates a client, or edits `client` (agents show their client's name, so they refresh too). */
export function useSaveClient(client: Client | undefined, callbacks?: WriteCallbacks<{ client: Client }, { name: string; triggerTerms: string[] }>) {
  return useAuditedWrite(
    (body: { name: string; triggerTerms: string[] }) =>
      client
        ? apiCall(clientContracts.update, { params: { id: client.id }, body })
        : apiCall(clientContracts.create, { body }),
    () => (client ? [clientKeys.all, agentKeys.all] : [clientKeys.all]),
    callbacks,
  );
}
