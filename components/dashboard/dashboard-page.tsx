"use client";

import Link from "next/link";
import { useState, type ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { Select } from "@/components/ui/select";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { formatDate, formatRelative, plural } from "@/lib/console/format";
import { useEscalationCounts } from "@/lib/console/hooks/lifecycle";
import { HqErasuresAlert, useHqErasuresWaiting } from "@/components/contacts/hq-erasures-alert";
import { categoryLabel } from "@/components/knowledge/labels";
import { FirstRunChecklist } from "./first-run-checklist";
import { useRetrievalStats } from "@/lib/console/hooks/retrieval";
import type { RetrievalStats } from "@/lib/console/retrieval-types";
import { RetrievalsChart } from "./retrievals-chart";
import { ConsolidationCard, type ConsolidationSchedule } from "./consolidation-card";

const RANGES = [
  { value: "7", label: "Last 7 days" },
  { value: "14", label: "Last 14 days" },
  { value: "30", label: "Last 30 days" },
  { value: "90", label: "Last 90 days" },
];

function Stat({ label, value, hint, href }: { label: string; value: ReactNode; hint?: ReactNode; href?: string }) {
  const body = (
    <>
      <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</p>
      <p className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{value}</p>
      {hint && <p className="mt-0.5 text-xs text-slate-500">{hint}</p>}
    </>
  );
  return (
    <Card className="px-5 py-4">
      {href ? (
        <Link href={href} className="block hover:opacity-80">
          {body}
        </Link>
      ) : (
        body
      )}
    </Card>
  );
}

const ms = (v: number | null) => (v === null ? "—" : `${v.toFixed(v < 10 ? 1 : 0)} ms`);

/**
 * The Dashboard: how agents use retrieval (calls per level per day, latency, empty answers), what
 * knowledge actually gets retrieved and what never does (so HQ can prune or improve it), and what
 * waits for a person (reviews, decisions without an outcome).
 */
export function DashboardPage({ consolidation }: { consolidation: ConsolidationSchedule }) {
  const [days, setDays] = useState("14");
  const hqErasures = useHqErasuresWaiting();
  const stats = useRetrievalStats(Number(days));

  return (
    <>
      <PageHeader
        title="Dashboard"
        description="How the agents use their memory, what knowledge gets used, and what is waiting for a person."
        actions={<Select aria-label="Time range" value={days} onChange={(e) => setDays(e.target.value)} options={RANGES} className="w-40" />}
      />
      <FirstRunChecklist />
      <HqErasuresAlert
        count={hqErasures}
        show={(label) => (
          <Link href="/contacts?hqErasure=pending" className="font-medium underline hover:no-underline">
            {label}
          </Link>
        )}
      />
      {stats.isPending ? (
        <Card>
          <LoadingState label="Loading the dashboard…" />
        </Card>
      ) : stats.isError ? (
        <Card>
          <ErrorState error={stats.error} onRetry={() => stats.refetch()} retrying={stats.isFetching} />
        </Card>
      ) : (
        <DashboardBody stats={stats.data} />
      )}
      <div className="mt-6">
        <ConsolidationCard schedule={consolidation} />
      </div>
    </>
  );
}

/** Escalations answered at once by a fix captured from an earlier one: the knowledge base at work. */
function KnownFixStat() {
  const escalations = useEscalationCounts();
  const counts = escalations.data;
  return (
    <Stat
      label="Answered by a known fix"
      value={counts ? counts.answeredByKnownFix : "—"}
      hint={
        counts
          ? `${plural(counts.open, "open escalation")} · ${counts.resolved.toLocaleString("en-US")} resolved`
          : escalations.isError
            ? "could not load escalations"
            : "loading…"
      }
      href="/escalations"
    />
  );
}

function DashboardBody({ stats }: { stats: RetrievalStats }) {
  const t = stats.totals;
  const reviews = stats.pendingReviews.suggestions + stats.pendingReviews.playbookUpdates;
  // searches: retrievals whose level called for a search (every level but "none")
  const searches = stats.perDay.reduce((n, d) => n + d.local + d.shared + d.hq, 0);
  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">
        <Stat
          label="Retrievals"
          value={t.retrievals}
          hint={`${plural(t.contextAssemblies, "context assembly", "context assemblies")} · ${plural(t.playgroundRuns, "playground run")}`}
        />
        <Stat label="Retrieve latency" value={ms(t.p95Ms)} hint={`p95 · median ${ms(t.p50Ms)}`} />
        <Stat
          label="Searches that found nothing"
          value={t.emptyRetrievals}
          hint={
            t.avgItems === null
              ? "no searches yet"
              : `of ${plural(searches, "search", "searches")} · ${t.avgItems.toFixed(1)} items per search on average`
          }
        />
        <Stat
          label="Pending reviews"
          value={reviews}
          hint={`${plural(stats.pendingReviews.suggestions, "suggestion")} · ${plural(stats.pendingReviews.playbookUpdates, "playbook update")}`}
          href="/review"
        />
        <KnownFixStat />
      </div>

      <Card>
        <CardHeader title="Retrievals per level" description="Agents' own calls to POST /retrieve, by the level the smart trigger chose (UTC days)." />
        <CardBody>
          {t.retrievals === 0 ? (
            <EmptyState title="No retrievals yet" description="Agents' calls to POST /api/v1/retrieve show up here, one bar per day." />
          ) : (
            <RetrievalsChart perDay={stats.perDay} />
          )}
        </CardBody>
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader title="Most retrieved knowledge" description="Knowledge base entries served to agents most often (all time)." />
          {stats.knowledge.mostRetrieved.length === 0 ? (
            <EmptyState title="No entry retrieved yet" description="Entries count once each time retrieval serves them to an agent." />
          ) : (
            <Table cards aria-label="Most retrieved knowledge">
              <THead>
                <Tr>
                  <Th>Entry</Th>
                  <Th className="text-right">Served</Th>
                  <Th>Last</Th>
                </Tr>
              </THead>
              <TBody>
                {stats.knowledge.mostRetrieved.map((k) => (
                  <Tr key={k.id}>
                    <EntryCell entry={k} />
                    <Td label="Served" className="text-right tabular-nums">{k.accessedCount}</Td>
                    <Td label="Last" className="text-xs whitespace-nowrap text-slate-500">{formatRelative(k.lastAccessedAt)}</Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </Card>
        <Card>
          <CardHeader
            title="Never retrieved knowledge"
            description={`${stats.knowledge.neverRetrievedCount} published ${stats.knowledge.neverRetrievedCount === 1 ? "entry has" : "entries have"} never been served to an agent; oldest first.`}
          />
          {stats.knowledge.neverRetrieved.length === 0 ? (
            <EmptyState title="Every entry has been used" description="Nothing in the knowledge base is gathering dust." />
          ) : (
            <Table cards aria-label="Never retrieved knowledge">
              <THead>
                <Tr>
                  <Th>Entry</Th>
                  <Th>Written</Th>
                </Tr>
              </THead>
              <TBody>
                {stats.knowledge.neverRetrieved.map((k) => (
                  <Tr key={k.id}>
                    <EntryCell entry={k} />
                    <Td label="Written" className="text-xs whitespace-nowrap text-slate-500">{formatDate(k.createdAt)}</Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </Card>
      </div>

      <Card>
        <CardHeader title="Open items" description="Decisions still waiting for their outcome, and the oldest suggestions awaiting review." />
        <CardBody className="grid gap-6 lg:grid-cols-2">
          <section aria-label="Decisions awaiting outcomes">
            <h3 className="text-sm font-semibold text-slate-900">
              Decisions awaiting outcomes{" "}
              <Link href="/outcomes" aria-label={`Open the ${stats.openItems.decisionsAwaitingOutcomeCount} decisions awaiting outcomes`}>
                <Badge tone="amber">{stats.openItems.decisionsAwaitingOutcomeCount}</Badge>
              </Link>
            </h3>
            {stats.openItems.decisionsAwaitingOutcome.length === 0 ? (
              <p className="mt-2 text-sm text-slate-500">Every decision has its outcome.</p>
            ) : (
              <ul className="mt-2 divide-y divide-slate-100">
                {stats.openItems.decisionsAwaitingOutcome.map((d) => (
                  <li key={d.id} className="py-2 text-sm">
                    {d.agentId ? (
                      <Link href={`/agents/${d.agentId}?tab=decisions`} className="text-slate-900 hover:text-indigo-600">
                        {d.title}
                      </Link>
                    ) : (
                      <p className="text-slate-900">{d.title}</p>
                    )}
                    <p className="text-xs text-slate-500">
                      {d.agentName}
                      {d.scope === "team" ? " · team" : ""} · decided {formatRelative(d.createdAt)}
                    </p>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-label="Suggestions awaiting review">
            <h3 className="text-sm font-semibold text-slate-900">
              Suggestions awaiting review{" "}
              <Link href="/review" aria-label={`Open the ${stats.pendingReviews.suggestions} pending suggestions`}>
                <Badge tone="indigo">{stats.pendingReviews.suggestions}</Badge>
              </Link>
            </h3>
            {stats.openItems.pendingSuggestions.length === 0 ? (
              <p className="mt-2 text-sm text-slate-500">The review queue is empty.</p>
            ) : (
              <ul className="mt-2 divide-y divide-slate-100">
                {stats.openItems.pendingSuggestions.map((s) => (
                  <li key={s.id} className="py-2 text-sm">
                    <p className="text-slate-900">
                      {s.contactId ? (
                        <Link href={`/contacts/${s.contactId}`} className="font-medium hover:text-indigo-600">
                          {s.contactName ?? "A contact"}
                        </Link>
                      ) : (
                        (s.contactName ?? "A contact")
                      )}{" "}
                      · <span className="font-mono text-xs">{s.key}</span> = {s.value}
                    </p>
                    <p className="text-xs text-slate-500">
                      confidence {s.confidence.toFixed(2)} · by {s.proposedByName || "someone"} · {formatRelative(s.createdAt)}
                    </p>
                  </li>
                ))}
              </ul>
            )}
            {stats.pendingReviews.suggestions > 0 && (
              <Link href="/review" className="mt-2 inline-block text-sm font-medium text-indigo-600 hover:text-indigo-500">
                Open the review queue
              </Link>
            )}
          </section>
        </CardBody>
      </Card>
    </div>
  );
}

/** A knowledge entry's cell in the Dashboard's lists: its title, linking to it, over its category. */
function EntryCell({ entry }: { entry: { id: string; title: string; category: string } }) {
  return (
    <Td primary>
      <Link href={`/knowledge/${entry.id}`} className="font-medium text-slate-900 hover:text-indigo-600">
        {entry.title}
      </Link>
      <p className="text-xs text-slate-500">{categoryLabel(entry.category)}</p>
    </Td>
  );
}
