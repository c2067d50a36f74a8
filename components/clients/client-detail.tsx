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
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { formatRelative, plural } from "@/lib/console/format";
import { useAgents, useClients } from "@/lib/console/hooks/agents";
import { useContacts } from "@/lib/console/hooks/review";

const BACK = { href: "/agents", label: "Agents & clients" };

/** One client: its field agents, its contacts, the words that trigger its memory and its fact-key allow-list. */
export function ClientDetail({ id }: { id: string }) {
  const isAdmin = useIsAdmin();
  const clients = useClients();
  const agents = useAgents();
  const contacts = useContacts({ clientId: id });
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
          {agents.isPending ? (
            <LoadingState label="Loading agents…" rows={2} />
          ) : own.length === 0 ? (
            <EmptyState title="No agent works for this client yet" description="Create a field agent on the Agents page and choose this client." />
          ) : (
            <Table cards>
              <THead>
                <tr>
                  <Th>Agent</Th>
                  <Th>Kind</Th>
                  <Th>Status</Th>
                </tr>
              </THead>
              <TBody>
                {own.map((a) => (
                  <Tr key={a.id}>
                    <Td primary>
                      <Link href={`/agents/${a.id}`} className="font-medium text-slate-900 hover:text-indigo-600">
                        {a.name}
                      </Link>
                    </Td>
                    <Td label="Kind" className="text-slate-600">
                      {KIND_LABEL[a.kind]} · {ROLE_LABEL[a.role]}
                    </Td>
                    <Td label="Status">
                      <AgentStatusBadge disabledAt={a.disabledAt} />
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </Card>

        <Card>
          <CardHeader title={`Contacts (${contacts.data?.length ?? "…"})`} description="The client's customers, with their facts and conversations." />
          {contacts.isPending ? (
            <LoadingState label="Loading contacts…" rows={3} />
          ) : contacts.isError ? (
            <ErrorState error={contacts.error} onRetry={() => contacts.refetch()} retrying={contacts.isFetching} />
          ) : contacts.data.length === 0 ? (
            <EmptyState title="No contacts yet" description="Agents add contacts as they talk to this client's customers." />
          ) : (
            <Table cards>
              <THead>
                <tr>
                  <Th>Contact</Th>
                  <Th>Facts</Th>
                  <Th>Updated</Th>
                </tr>
              </THead>
              <TBody>
                {contacts.data.map((c) => (
                  <Tr key={c.id}>
                    <Td primary>
                      <Link href={`/contacts/${c.id}`} className="font-medium text-slate-900 hover:text-indigo-600">
                        {c.name ?? "Opted-out contact"}
                      </Link>
                    </Td>
                    <Td label="Facts" className="text-slate-600">
                      {plural(c.factCount ?? 0, "fact")}
                      {c.pendingCount ? ` · ${plural(c.pendingCount, "pending suggestion")}` : ""}
                    </Td>
                    <Td label="Updated" className="text-slate-600">{formatRelative(c.updatedAt)}</Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </Card>

        <FactKeysCard clientId={client.id} clientName={client.name} />
      </div>
      {isAdmin && <ClientDialog open={editing} onClose={() => setEditing(false)} client={client} />}
    </>
  );
}
