"use client";

import Link from "next/link";
import { useDeferredValue, useState } from "react";
import { useIsAdmin } from "@/components/shell/current-user";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { Select } from "@/components/ui/select";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import { useClients } from "@/lib/console/hooks/agents";
import { useContacts } from "@/lib/console/hooks/review";
import { FactKeysCard } from "./fact-keys-card";
import { NewContactDialog } from "./new-contact-dialog";
import { STAGE_LABEL } from "./labels";

/** Contacts: the canonical profiles the memory manager keeps, per client. */
export function ContactsPage() {
  const isAdmin = useIsAdmin();
  const clients = useClients();
  const [clientId, setClientId] = useState("");
  const [search, setSearch] = useState("");
  const [includeOptedOut, setIncludeOptedOut] = useState(false);
  const [creating, setCreating] = useState(false);
  // the search runs on the server; typing fast sends the last value, not every keystroke
  const query = useDeferredValue(search.trim());
  const contacts = useContacts({ clientId: clientId || undefined, q: query || undefined, includeOptedOut });
  const selectedClient = clients.data?.find((c) => c.id === clientId);

  return (
    <>
      <PageHeader
        title="Contacts"
        description="The people agents talk to, and the facts the memory manager has validated about them. Only manager agents and HQ admins write here."
        actions={isAdmin && <Button onClick={() => setCreating(true)}>New contact</Button>}
      />
      <div className="mb-4 flex flex-wrap items-end gap-3" role="group" aria-label="Filters">
        <label className="text-xs font-medium text-slate-600">
          Client
          <Select
            className="mt-1 w-52"
            value={clientId}
            onChange={(e) => setClientId(e.target.value)}
            options={[
              { value: "", label: "All clients" },
              { value: "hq", label: "HQ's own contacts" },
              ...(clients.data ?? []).map((c) => ({ value: c.id, label: c.name })),
            ]}
          />
        </label>
        <label className="text-xs font-medium text-slate-600">
          Search
          <Input className="mt-1 w-64" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="name, email or phone" />
        </label>
        <label className="mb-2 flex items-center gap-2 text-sm text-slate-600">
          <input type="checkbox" checked={includeOptedOut} onChange={(e) => setIncludeOptedOut(e.target.checked)} className="size-4 rounded border-slate-300" />
          Show opted-out contacts
        </label>
      </div>

      <div className="space-y-6">
        <Card>
          {contacts.isPending ? (
            <LoadingState label="Loading contacts…" rows={5} />
          ) : contacts.isError ? (
            <ErrorState error={contacts.error} onRetry={() => contacts.refetch()} retrying={contacts.isFetching} />
          ) : contacts.data.length === 0 ? (
            <EmptyState
              title={search || clientId ? "No contact matches" : "No contacts yet"}
              description={search || clientId ? "Try another client or search." : "Manager agents create contacts as conversations come in."}
            />
          ) : (
            <Table cards>
              <THead>
                <tr>
                  <Th>Contact</Th>
                  <Th>Phone</Th>
                  <Th>Email</Th>
                  <Th>Client</Th>
                  <Th>Stage</Th>
                  <Th className="text-right">Facts</Th>
                  <Th className="text-right">Pending</Th>
                  <Th>Updated</Th>
                </tr>
              </THead>
              <TBody>
                {contacts.data.map((c) => (
                  <Tr key={c.id} data-testid="contact-row">
                    <Td primary>
                      <Link href={`/contacts/${c.id}`} className="font-medium text-slate-900 hover:text-indigo-600">
                        {c.name ?? (c.optOut ? "Opted-out contact" : "Unnamed contact")}
                      </Link>
                    </Td>
                    <Td label="Phone" className="font-mono text-xs">{c.phone ?? "—"}</Td>
                    <Td label="Email" className="text-xs">{c.email ?? "—"}</Td>
                    <Td label="Client" className="text-xs">{c.clientName ?? "HQ"}</Td>
                    <Td label="Stage">{c.optOut ? <Badge tone="red">Opted out</Badge> : <Badge>{STAGE_LABEL[c.stage] ?? c.stage}</Badge>}</Td>
                    <Td label="Facts" className="text-right">{c.factCount ?? 0}</Td>
                    <Td label="Pending" className="text-right">{c.pendingCount ? <Badge tone="amber">{c.pendingCount}</Badge> : "0"}</Td>
                    <Td label="Updated" className="text-xs text-slate-500">
                      <span title={formatDateTime(c.updatedAt)}>{formatRelative(c.updatedAt)}</span>
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </Card>
        {selectedClient ? (
          <FactKeysCard clientId={selectedClient.id} clientName={selectedClient.name} />
        ) : (
          <p className="text-sm text-slate-500">Choose a client above to see and edit its list of business-relevant fact keys.</p>
        )}
      </div>
      {isAdmin && <NewContactDialog open={creating} onClose={() => setCreating(false)} clients={clients.data ?? []} />}
    </>
  );
}
