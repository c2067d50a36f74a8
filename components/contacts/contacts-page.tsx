"use client";

import { useState } from "react";
import { useIsAdmin } from "@/components/shell/current-user";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { DataTable } from "@/components/ui/data-list";
import { FilterBar, FilterSearch } from "@/components/ui/filter-bar";
import { PageHeader } from "@/components/ui/page-header";
import { Select } from "@/components/ui/select";
import { useClients } from "@/lib/console/hooks/agents";
import { useContacts } from "@/lib/console/hooks/review";
import { useTypedFilter } from "@/lib/console/hooks/typed-filter";
import { useListUrl } from "@/lib/console/url-state";
import { CONTACT_COLUMNS } from "./contact-columns";
import { FactKeysCard } from "./fact-keys-card";
import { HqErasuresAlert, useHqErasuresWaiting } from "./hq-erasures-alert";
import { NewContactDialog } from "./new-contact-dialog";

const PAGE_SIZE = 50;

/** Contacts: the canonical profiles the memory manager keeps, per client. The filters and the page are in the address. */
export function ContactsPage() {
  const isAdmin = useIsAdmin();
  const clients = useClients();
  const { filters, page, setFilters, setPage } = useListUrl({ client: "", q: "", optedOut: "", hqErasure: "" });
  const [search, setSearch] = useTypedFilter(filters.q, (q) => setFilters({ q }));
  const [creating, setCreating] = useState(false);
  const clientId = filters.client;
  const includeOptedOut = filters.optedOut === "1";
  const hqErasurePending = isAdmin && filters.hqErasure === "pending";
  const contacts = useContacts({ clientId: clientId || undefined, q: filters.q || undefined, includeOptedOut, hqErasurePending }, { page, pageSize: PAGE_SIZE });
  // opt-outs by field managers that HQ has still to finish in its own records (admins see them)
  const awaiting = useHqErasuresWaiting();
  const selectedClient = clients.data?.find((c) => c.id === clientId);
  const filtered = Boolean(filters.q || clientId || hqErasurePending);

  return (
    <>
      <PageHeader
        title="Contacts"
        description="The people agents talk to, and the facts the memory manager has validated about them. Only manager agents and HQ admins write here."
        actions={isAdmin && <Button onClick={() => setCreating(true)}>New contact</Button>}
      />
      {!hqErasurePending && (
        <HqErasuresAlert
          count={awaiting}
          show={(label) => (
            <button type="button" className="font-medium underline hover:no-underline" onClick={() => setFilters({ hqErasure: "pending" })}>
              {label}
            </button>
          )}
        />
      )}
      <div role="group" aria-label="Filters">
        <FilterBar
          active={[clientId, includeOptedOut, hqErasurePending].filter(Boolean).length}
          primary={<FilterSearch value={search} onChange={setSearch} placeholder="name, email or phone" />}
        >
          <label className="text-xs font-medium text-slate-600">
            Client
            <Select
              className="mt-1 w-52"
              value={clientId}
              onChange={(e) => setFilters({ client: e.target.value })}
              options={[
                { value: "", label: "All clients" },
                { value: "hq", label: "HQ's own contacts" },
                ...(clients.data ?? []).map((c) => ({ value: c.id, label: c.name })),
              ]}
            />
          </label>
          <label className="mb-2 flex items-center gap-2 text-sm text-slate-600">
            <input type="checkbox" checked={includeOptedOut} onChange={(e) => setFilters({ optedOut: e.target.checked ? "1" : "" })} className="size-4 rounded border-slate-300" />
            Show opted-out contacts
          </label>
          {isAdmin && (
            <label className="mb-2 flex items-center gap-2 text-sm text-slate-600">
              <input
                type="checkbox"
                checked={hqErasurePending}
                onChange={(e) => setFilters({ hqErasure: e.target.checked ? "pending" : "" })}
                className="size-4 rounded border-slate-300"
              />
              Only opt-outs to finish in HQ&apos;s records
            </label>
          )}
        </FilterBar>
      </div>

      <div className="space-y-6">
        <Card>
          <DataTable
            list={contacts}
            onPage={setPage}
            noun={["contact", "contacts"]}
            aria-label="Contacts"
            columns={CONTACT_COLUMNS}
            rowProps={() => ({ "data-testid": "contact-row" })}
            empty={
              <EmptyState
                title={hqErasurePending ? "No opt-out left to finish" : filtered ? "No contact matches" : "No contacts yet"}
                description={filtered ? "Try another client or search." : "Manager agents create contacts as conversations come in."}
              />
            }
          />
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
