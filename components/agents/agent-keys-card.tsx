"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import { useAgentKeys, useRevokeAgentKey } from "@/lib/console/hooks/agents";
import type { Agent, AgentKey } from "@/lib/console/types";
import { IssueKeyDialog } from "./issue-key-dialog";

/** The agent's API keys (admins only): issue, list, revoke. */
export function AgentKeysCard({ agent }: { agent: Agent }) {
  const keys = useAgentKeys(agent.id);
  const [issuing, setIssuing] = useState(false);
  const [revoking, setRevoking] = useState<AgentKey | null>(null);

  const revoke = useRevokeAgentKey(agent.id);

  const active = keys.data?.filter((k) => !k.revokedAt).length;

  return (
    <Card>
      <CardHeader
        title="API keys"
        description={
          active === undefined
            ? "Keys let the agent call /api/v1. Only a short prefix is stored in clear."
            : `${active} active key${active === 1 ? "" : "s"}. Only a short prefix of each key is stored in clear.`
        }
        actions={<Button onClick={() => setIssuing(true)}>Issue key</Button>}
      />
      {keys.isPending ? (
        <LoadingState label="Loading keys…" rows={2} />
      ) : keys.isError ? (
        <ErrorState error={keys.error} onRetry={() => keys.refetch()} retrying={keys.isFetching} />
      ) : keys.data.length === 0 ? (
        <EmptyState
          title="No keys yet"
          description={`Issue a key so ${agent.name} can authenticate to the API.`}
          action={<Button onClick={() => setIssuing(true)}>Issue key</Button>}
        />
      ) : (
        <Table cards>
          <THead>
            <tr>
              <Th>Label</Th>
              <Th>Key</Th>
              <Th>Created</Th>
              <Th>Last used</Th>
              <Th>Status</Th>
              <Th className="text-right">
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </THead>
          <TBody>
            {keys.data.map((key) => (
              <Tr key={key.id} data-testid="key-row" data-key-prefix={key.prefix}>
                <Td primary className="font-medium text-slate-900">{key.label || <span className="font-normal text-slate-500">Unlabelled</span>}</Td>
                <Td label="Key">
                  <code className="font-mono text-xs text-slate-600">{key.prefix}…</code>
                </Td>
                <Td label="Created">
                  <span title={formatDateTime(key.createdAt)}>{formatRelative(key.createdAt)}</span>
                  {key.createdByName && <span className="block text-xs text-slate-500">by {key.createdByName}</span>}
                </Td>
                <Td label="Last used">
                  <span title={key.lastUsedAt ? formatDateTime(key.lastUsedAt) : undefined}>{formatRelative(key.lastUsedAt)}</span>
                </Td>
                <Td label="Status">
                  {key.revokedAt ? (
                    <Badge tone="red">
                      <span title={formatDateTime(key.revokedAt)}>Revoked {formatRelative(key.revokedAt)}</span>
                    </Badge>
                  ) : (
                    <Badge tone="green">Active</Badge>
                  )}
                </Td>
                <Td className="text-right">
                  {!key.revokedAt && (
                    <Button variant="danger-ghost" size="sm" onClick={() => setRevoking(key)}>
                      Revoke
                    </Button>
                  )}
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
      <IssueKeyDialog open={issuing} onClose={() => setIssuing(false)} agent={agent} />
      <ConfirmDialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        title="Revoke this key?"
        description={
          revoking && (
            <>
              Requests with <code className="font-mono text-xs">{revoking.prefix}…</code>
              {revoking.label ? ` (${revoking.label})` : ""} will be refused at once. This can&apos;t be undone.
            </>
          )
        }
        confirmLabel="Revoke key"
        onConfirm={() => revoking && revoke.mutateAsync(revoking.id)}
      />
    </Card>
  );
}
