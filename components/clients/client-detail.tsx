"use client";

import Link from "next/link";
import { useState } from "react";
import { AgentStatusBadge } from "@/components/agents/agent-status-badge";
import { KIND_LABEL, ROLE_LABEL } from "@/components/agents/agent-labels";
import { ClientDialog } from "@/components/agents/client-dialog";
import { FactKeysCard } from "@/components/contacts/fact-keys-card";
import { useIsAdmin } from "@/components/shell/current-user";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable, type Column } from "@/components/ui/data-list";
import { useAgents, useClients } from "@/lib/console/hooks/agents";
import { pageLocally } from "@/lib/console/hooks/paged-list";
import { useContacts } from "@/lib/console/hooks/review";
import type { Agent } from "@/lib/console/types";
import { useListUrl } from "@/lib/console/url-state";
import { CLIENT_CONTACT_COLUMNS } from "@/components/contacts/contact-columns";

const BACK = { href: "/agents", label: "Agents & clients" };
const PAGE_SIZE = 50;

const AGENT_COLUMNS: Column<Agent>[] = [
  {
    id: "agent",
    header: "Agent",
    primary: true,
    cell: (a) => (
      <Link href={`/agents/${a.id}`} className="font-medium text-slate-900 hover:text-indigo-600">
        {a.name}
      </Link>
    ),
  },
  { id: "kind", header: "Kind", className: "text-slate-600", cell: (a) => `${KIND_LABEL[a.kind]} · ${ROLE_LABEL[a.role]}` },
  { id: "status", header: "Status", cell: (a) => <AgentStatusBadge disabledAt={a.disabledAt} /> },
];

/** One client: its field agents, its contacts, the words that trigger its memory and its fact-key allow-list. */
export function ClientDetail({ id }: { id: string }) {
  const isAdmin = useIsAdmin();
  const clients = useClients();
  const agents = useAgents();
  const agentsView = useListUrl({}, "agentsPage");
  const contactsView = useListUrl({}, "contactsPage");
  const contacts = useContacts({ clientId: id }, { page: contactsView.page, pageSize: PAGE_SIZE });
  const [editing, setEditing] = useState(false);

  if (clients.isPending) return <LoadingState label="Loading the client…" variant="spinner" />;
  if (clients.isError) return <ErrorState error={clients.error} onRetry={() => clients.refetch()} retrying={clients.isFetching} />;
  const client = clients.data.find((c) => c.id === id);
  if (!client) {
    return (
      <>
        <PageHeader title="Client not found" back={BACK} />
        <EmptyState title="This client doesn't exist" description="It may have been removed, or the link is wrong." />
      </>
    );
  }
  const own = (agents.data ?? []).filter((a) => a.clientId === id);

  return (
    <>
      <PageHeader
        back={BACK}
        title={client.name}
        description="A client of HQ: field agents deployed to it see only its data and the knowledge base."
        actions={
          isAdmin && (
            <Button variant="secondary" onClick={() => setEditing(true)}>
              Edit client
            </Button>
          )
        }
      />
      <div className="space-y-6">
        <Card>
          <CardHeader title="Trigger terms" description="Words that, in an agent's message, make retrieval look in this client's memory." />
          <CardBody>
            {client.triggerTerms.length ? (
              <ul className="flex flex-wrap gap-1.5" aria-label="Trigger terms">
                {client.triggerTerms.map((t) => (
                  <li key={t}>
                    <Badge>{t}</Badge>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-slate-500">None yet: only the client&apos;s name triggers its memory.</p>
            )}
          </CardBody>
        </Card>

        <Card>
          <CardHeader title={`Agents (${own.length})`} description="Field agents deployed to this client." />
          <DataTable
            list={pageLocally({ ...agents, data: agents.data && own }, agentsView.page, PAGE_SIZE)}
            onPage={agentsView.setPage}
            noun={["agent", "agents"]}
            aria-label="The client's agents"
            columns={AGENT_COLUMNS}
            empty={<EmptyState title="No agent works for this client yet" description="Create a field agent on the Agents page and choose this client." />}
          />
        </Card>

        <Card>
          <CardHeader title={`Contacts (${contacts.total ?? "…"})`} description="The client's customers, with their facts and conversations." />
          <DataTable
            list={contacts}
            onPage={contactsView.setPage}
            noun={["contact", "contacts"]}
            aria-label="The client's contacts"
            columns={CLIENT_CONTACT_COLUMNS}
            empty={<EmptyState title="No contacts yet" description="Agents add contacts as they talk to this client's customers." />}
          />
        </Card>

        <FactKeysCard clientId={client.id} clientName={client.name} />
      </div>
      {isAdmin && <ClientDialog open={editing} onClose={() => setEditing(false)} client={client} />}
    </>
  );
}
