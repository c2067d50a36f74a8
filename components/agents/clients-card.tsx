"use client";

import Link from "next/link";
import { useState } from "react";
import { useIsAdmin } from "@/components/shell/current-user";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { useAgents, useClients } from "@/lib/console/hooks/agents";
import type { Client } from "@/lib/console/types";
import { ClientDialog } from "./client-dialog";

export function ClientsCard() {
  const isAdmin = useIsAdmin();
  const clients = useClients();
  const agents = useAgents();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Client | null>(null);

  const agentCount = (clientId: string) => agents.data?.filter((a) => a.clientId === clientId).length;

  return (
    <Card>
      <CardHeader
        title="Clients"
        description="Businesses your field agents serve. Each client's memory is isolated from every other client's."
        actions={
          isAdmin && (
            <Button variant="secondary" onClick={() => setCreating(true)}>
              New client
            </Button>
          )
        }
      />
      {clients.isPending ? (
        <LoadingState label="Loading clients…" rows={2} />
      ) : clients.isError ? (
        <ErrorState error={clients.error} onRetry={() => clients.refetch()} retrying={clients.isFetching} />
      ) : clients.data.length === 0 ? (
        <EmptyState
          title="No clients yet"
          description="Create a client before deploying a field agent to it."
          action={isAdmin && <Button onClick={() => setCreating(true)}>New client</Button>}
        />
      ) : (
        <Table cards>
          <THead>
            <tr>
              <Th>Client</Th>
              <Th>Trigger terms</Th>
              <Th>Field agents</Th>
              {isAdmin && <Th className="text-right">
                <span className="sr-only">Actions</span>
              </Th>}
            </tr>
          </THead>
          <TBody>
            {clients.data.map((client) => (
              <Tr key={client.id}>
                <Td primary>
                  <Link href={`/clients/${client.id}`} className="font-medium text-slate-900 hover:text-indigo-600">
                    {client.name}
                  </Link>
                  <p className="font-mono text-xs text-slate-500">{client.slug}</p>
                </Td>
                <Td label="Trigger terms">
                  {client.triggerTerms.length ? (
                    <div className="flex max-w-md flex-wrap gap-1.5">
                      {client.triggerTerms.map((t) => (
                        <span key={t} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                          {t}
                        </span>
                      ))}
                    </div>
                  ) : (
                    <span className="text-slate-500">None</span>
                  )}
                </Td>
                <Td label="Field agents">{agentCount(client.id) ?? "—"}</Td>
                {isAdmin && (
                  <Td className="text-right">
                    <Button variant="ghost" size="sm" onClick={() => setEditing(client)} aria-label={`Edit ${client.name}`}>
                      Edit
                    </Button>
                  </Td>
                )}
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
      <ClientDialog open={creating} onClose={() => setCreating(false)} />
      <ClientDialog open={editing !== null} onClose={() => setEditing(null)} client={editing ?? undefined} />
    </Card>
  );
}
