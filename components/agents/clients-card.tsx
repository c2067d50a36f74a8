"use client";

import Link from "next/link";
import { useState } from "react";
import { useIsAdmin } from "@/components/shell/current-user";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { actionsColumn, DataTable } from "@/components/ui/data-list";
import { useAgents, useClients } from "@/lib/console/hooks/agents";
import { pageLocally } from "@/lib/console/hooks/paged-list";
import { useListUrl } from "@/lib/console/url-state";
import type { Client } from "@/lib/console/types";
import { ClientDialog } from "./client-dialog";

const PAGE_SIZE = 50;

export function ClientsCard() {
  const isAdmin = useIsAdmin();
  const clients = useClients();
  const agents = useAgents();
  const view = useListUrl({}, "clientsPage");
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Client | null>(null);

  const agentCount = (clientId: string) => agents.data?.filter((a) => a.clientId === clientId).length;

  return (
    <Card id="clients" className="scroll-mt-6">
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
      <DataTable
        list={pageLocally(clients, view.page, PAGE_SIZE)}
        onPage={view.setPage}
        noun={["client", "clients"]}
        aria-label="Clients"
        columns={[
          {
            id: "client",
            header: "Client",
            primary: true,
            cell: (client) => (
              <>
                <Link href={`/clients/${client.id}`} className="font-medium text-slate-900 hover:text-indigo-600">
                  {client.name}
                </Link>
                <p className="font-mono text-xs text-slate-500">{client.slug}</p>
              </>
            ),
          },
          {
            id: "terms",
            header: "Trigger terms",
            cell: (client) =>
              client.triggerTerms.length ? (
                <div className="flex max-w-md flex-wrap gap-1.5">
                  {client.triggerTerms.map((t) => (
                    <span key={t} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                      {t}
                    </span>
                  ))}
                </div>
              ) : (
                <span className="text-slate-500">None</span>
              ),
          },
          { id: "agents", header: "Field agents", cell: (client) => agentCount(client.id) ?? "—" },
          ...(isAdmin
            ? [
                actionsColumn((client: Client) => (
                  <Button variant="ghost" size="sm" onClick={() => setEditing(client)} aria-label={`Edit ${client.name}`}>
                    Edit
                  </Button>
                )),
              ]
            : []),
        ]}
        empty={
          <EmptyState
            title="No clients yet"
            description="Create a client before deploying a field agent to it."
            action={isAdmin && <Button onClick={() => setCreating(true)}>New client</Button>}
          />
        }
      />
      <ClientDialog open={creating} onClose={() => setCreating(false)} />
      <ClientDialog open={editing !== null} onClose={() => setEditing(null)} client={editing ?? undefined} />
    </Card>
  );
}
