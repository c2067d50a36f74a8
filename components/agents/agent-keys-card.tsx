"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { actionsColumn, DataTable } from "@/components/ui/data-list";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import { useAgentKeys, useRevokeAgentKey } from "@/lib/console/hooks/agents";
import { pageLocally } from "@/lib/console/hooks/paged-list";
import { useListUrl } from "@/lib/console/url-state";
import type { Agent, AgentKey } from "@/lib/console/types";
import { IssueKeyDialog } from "./issue-key-dialog";

const PAGE_SIZE = 25;

/** The agent's API keys (admins only): issue, list, revoke. */
export function AgentKeysCard({ agent }: { agent: Agent }) {
  const keys = useAgentKeys(agent.id);
  const [issuing, setIssuing] = useState(false);
  const [revoking, setRevoking] = useState<AgentKey | null>(null);

  const revoke = useRevokeAgentKey(agent.id);
  const view = useListUrl({}, "keysPage");

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
      <DataTable
        list={pageLocally(keys, view.page, PAGE_SIZE)}
        onPage={view.setPage}
        noun={["key", "keys"]}
        aria-label="API keys"
        rowProps={(k) => ({ "data-testid": "key-row", "data-key-prefix": k.prefix })}
        columns={[
          {
            id: "label",
            header: "Label",
            primary: true,
            className: "font-medium text-slate-900",
            cell: (key) => key.label || <span className="font-normal text-slate-500">Unlabelled</span>,
          },
          { id: "key", header: "Key", cell: (key) => <code className="font-mono text-xs text-slate-600">{key.prefix}…</code> },
          {
            id: "created",
            header: "Created",
            cell: (key) => (
              <>
                <span title={formatDateTime(key.createdAt)}>{formatRelative(key.createdAt)}</span>
                {key.createdByName && <span className="block text-xs text-slate-500">by {key.createdByName}</span>}
              </>
            ),
          },
          {
            id: "used",
            header: "Last used",
            cell: (key) => <span title={key.lastUsedAt ? formatDateTime(key.lastUsedAt) : undefined}>{formatRelative(key.lastUsedAt)}</span>,
          },
          {
            id: "status",
            header: "Status",
            cell: (key) =>
              key.revokedAt ? (
                <Badge tone="red">
                  <span title={formatDateTime(key.revokedAt)}>Revoked {formatRelative(key.revokedAt)}</span>
                </Badge>
              ) : (
                <Badge tone="green">Active</Badge>
              ),
          },
          // revoking cannot be undone: it asks for the key's prefix typed out
          actionsColumn(
            (key: AgentKey) =>
              !key.revokedAt && (
                <Button variant="danger-ghost" size="sm" onClick={() => setRevoking(key)}>
                  Revoke…
                </Button>
              ),
          ),
        ]}
        empty={
          <EmptyState
            title="No keys yet"
            description={`Issue a key so ${agent.name} can authenticate to the API.`}
            action={<Button onClick={() => setIssuing(true)}>Issue key</Button>}
          />
        }
      />
      <IssueKeyDialog open={issuing} onClose={() => setIssuing(false)} agent={agent} />
      <ConfirmDialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        title="Revoke this key?"
        description={
          revoking && (
            <>
              Requests with <code className="font-mono text-xs">{revoking.prefix}…</code>
              {revoking.label ? ` (${revoking.label})` : ""} will be refused at once. A revoked key never works again: the agent needs a new one.
            </>
          )
        }
        phrase={revoking?.prefix ?? ""}
        confirmLabel="Revoke key"
        onConfirm={() => (revoking ? revoke.mutateAsync(revoking.id) : Promise.resolve())}
      />
    </Card>
  );
}
