"use client";

import { FilterBar, FilterSearch } from "@/components/ui/filter-bar";
import { Select } from "@/components/ui/select";
import { useClients } from "@/lib/console/hooks/agents";
import { useTypedFilter } from "@/lib/console/hooks/typed-filter";
import { SUGGESTION_STATUSES } from "@/lib/console/review-types";
import { capitalize } from "@/lib/console/format";
import { VERDICTS, type useReviewFilters } from "./use-review-filters";

/** The queue's filters (all in the address): words, status, client and — for pending ones — the rules' verdict. */
export function ReviewFilters({ view }: { view: ReturnType<typeof useReviewFilters> }) {
  const clients = useClients();
  const [search, setSearch] = useTypedFilter(view.q, (q) => view.setFilters({ q }));
  const clientOptions = [
    { value: "", label: "All clients" },
    { value: "hq", label: "HQ's own contacts" },
    ...(clients.data ?? []).map((c) => ({ value: c.id, label: c.name })),
  ];
  return (
    <div role="group" aria-label="Filters">
      <FilterBar
        active={[view.status !== "pending", view.clientId, view.verdict].filter(Boolean).length}
        primary={<FilterSearch value={search} onChange={setSearch} placeholder="Key, value, contact or agent" />}
      >
        <label className="text-xs font-medium text-slate-600">
          Status
          <Select
            className="mt-1 w-40"
            value={view.status}
            onChange={(e) => view.setFilters({ status: e.target.value, verdict: null })}
            options={SUGGESTION_STATUSES.map((s) => ({ value: s, label: capitalize(s) }))}
          />
        </label>
        <label className="text-xs font-medium text-slate-600">
          Client
          <Select className="mt-1 w-52" value={view.clientId} onChange={(e) => view.setFilters({ client: e.target.value })} options={clientOptions} />
        </label>
        {view.status === "pending" && (
          <label className="text-xs font-medium text-slate-600">
            Verdict
            <Select className="mt-1 w-48" value={view.verdict} onChange={(e) => view.setFilters({ verdict: e.target.value })} options={VERDICTS} />
          </label>
        )}
      </FilterBar>
    </div>
  );
}
