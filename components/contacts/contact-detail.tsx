"use client";

import Link from "next/link";
import { useState } from "react";
import { confidenceTone, formatConfidence, STATUS_TONE } from "@/components/review/labels";
import { useIsAdmin } from "@/components/shell/current-user";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DangerAction, DangerZone } from "@/components/ui/danger-zone";
import { DescriptionList } from "@/components/ui/description-list";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { cn } from "@/lib/console/cn";
import { formatDateTime, formatRelative, plural } from "@/lib/console/format";
import { useAgents } from "@/lib/console/hooks/agents";
import { Conversations } from "@/components/memories/conversations";
import { useContact, useFactHistory, useKeepHqMentions, useOptOutContact, useSuggestionPages } from "@/lib/console/hooks/review";
import { useListUrl } from "@/lib/console/url-state";
import { DataTable, type Column } from "@/components/ui/data-list";
import type { Contact, Fact, Suggestion } from "@/lib/console/review-types";
import { EditContactDialog } from "./edit-contact-dialog";
import { SENTIMENT_TONE, STAGE_LABEL } from "./labels";
import { WriteFactDialog, type FactTarget } from "./write-fact-dialog";

export function ContactDetail({ id }: { id: string }) {
  const contact = useContact(id);

  if (contact.isPending) return <LoadingState label="Loading contact…" variant="spinner" />;
  if (contact.isError) {
    return (
      <>
        <PageHeader title="Contact" back={{ href: "/contacts", label: "Contacts" }} />
        <Card>
          <ErrorState error={contact.error} onRetry={() => contact.refetch()} retrying={contact.isFetching} />
        </Card>
      </>
    );
  }
  return <ContactView contact={contact.data.contact} />;
}

function ContactView({ contact }: { contact: Contact }) {
  const isAdmin = useIsAdmin();
  const [confirming, setConfirming] = useState<false | "erase" | "finish" | "keep">(false);
  const [editing, setEditing] = useState(false);
  const optOut = useOptOutContact(contact.id);
  const keep = useKeepHqMentions(contact.id);
  const left = contact.hqErasure;
  const title = contact.name ?? (contact.optOut ? "Opted-out contact" : "Unnamed contact");

  return (
    <>
      <PageHeader
        title={title}
        back={{ href: "/contacts", label: "Contacts" }}
        meta={
          <>
            {contact.clientId ? (
              <Link href={`/clients/${contact.clientId}`} className="inline-flex max-w-full min-w-0 rounded-md hover:opacity-80">
                <Badge tone="indigo">{contact.clientName ?? "Client"}</Badge>
              </Link>
            ) : (
              <Badge tone="indigo">HQ</Badge>
            )}
            {contact.optOut ? <Badge tone="red">Opted out {formatRelative(contact.optedOutAt)}</Badge> : <Badge>{STAGE_LABEL[contact.stage] ?? contact.stage}</Badge>}
            {contact.sentiment && <Badge tone={SENTIMENT_TONE[contact.sentiment] ?? "neutral"}>{contact.sentiment}</Badge>}
          </>
        }
      />
      {optOut.data?.erased.finishedForHq ? (
        <Alert tone="success" className="mb-6" title="Erased from HQ's records">
          Redacted their name, phone and email in {plural(Number(optOut.data.erased.redactedRows ?? 0), "record")}; nothing about them is kept for HQ any more.
        </Alert>
      ) : keep.data ? (
        <Alert tone="success" className="mb-6" title="HQ's records kept as they are">
          What the opt-out kept for HQ to erase is deleted; HQ&apos;s records were not changed.
        </Alert>
      ) : optOut.data && (
        <Alert tone="success" className="mb-6" title="Contact erased">
          Deleted {plural(Number(optOut.data.erased.facts ?? 0), "fact")}, {plural(Number(optOut.data.erased.suggestions ?? 0), "suggestion")},{" "}
          {plural(Number(optOut.data.erased.interactions ?? 0), "message")}, {plural(Number(optOut.data.erased.events ?? 0), "event")} and{" "}
          {plural(Number(optOut.data.erased.notes ?? 0), "note")}; redacted mentions in {plural(Number(optOut.data.erased.redactedRows ?? 0), "other record")}.
        </Alert>
      )}
      {left && (
        <Card className="mb-6" data-testid="hq-erasure">
          <CardHeader
            title="HQ's records still name this person"
            description={`${contact.clientName ?? "The client"}'s manager opted them out ${formatRelative(left.requestedAt)}. A field manager's erasure stays inside its own client, so HQ finishes it in HQ's own records.`}
          />
          <CardBody>
            <DescriptionList
              items={[
                { label: "Name", value: left.name ?? "—" },
                { label: "Phone", value: left.phone ? <span className="font-mono">{left.phone}</span> : "—" },
                { label: "Email", value: left.email ?? "—" },
                { label: "HQ records naming them", value: `${left.hqRows} at the opt-out (the knowledge base, internal agents' memories and documents)` },
              ]}
            />
            <p className="mt-3 text-sm text-slate-600">
              Erase them unless these records are about someone else with the same name. Until you decide, only HQ admins and internal managers can see what is kept here.
            </p>
            {isAdmin && (
              <div className="mt-4 flex flex-wrap gap-2">
                <Button variant="danger" onClick={() => setConfirming("finish")}>
                  Erase from HQ&apos;s records…
                </Button>
                <Button variant="secondary" onClick={() => setConfirming("keep")}>
                  Keep HQ&apos;s records…
                </Button>
              </div>
            )}
          </CardBody>
        </Card>
      )}
      {contact.optOut && !optOut.data && !left && (
        <Alert tone="info" className="mb-6" title="This contact opted out">
          Their name, phone, email, facts, suggestions and conversations were erased. Only this record and an audit entry without personal data remain, and nothing new is stored about them.
        </Alert>
      )}
      <div className="space-y-6">
        {!contact.optOut && (
          <Card>
            <CardHeader
              title="Profile"
              actions={
                isAdmin && (
                  <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
                    Edit profile
                  </Button>
                )
              }
            />
            <CardBody>
              <DescriptionList
                items={[
                  { label: "Phone", value: contact.phone ? <span className="font-mono">{contact.phone}</span> : "—" },
                  { label: "Email", value: contact.email ?? "—" },
                  { label: "Summary", value: contact.summary || <span className="text-slate-500">No summary yet</span>, wide: true },
                  { label: "Created", value: formatDateTime(contact.createdAt) },
                  { label: "Updated", value: formatDateTime(contact.updatedAt) },
                ]}
              />
            </CardBody>
          </Card>
        )}
        <FactsCard contact={contact} canWrite={isAdmin && !contact.optOut} />
        {!contact.optOut && <ConversationCard contactId={contact.id} />}
        <SuggestionsCard contactId={contact.id} />
        {isAdmin && !contact.optOut && (
          // erasure cannot be undone: kept apart at the foot of the page, behind the contact's name typed out
          <DangerZone>
            <DangerAction
              title="Opt out and erase"
              description="Deletes their facts, suggestions, conversations, events and notes, removes their name, phone and email from every record that mentions them, and stores nothing new about them. It cannot be undone."
              action={
                <Button variant="danger-outline" onClick={() => setConfirming("erase")}>
                  Opt out and erase…
                </Button>
              }
            />
          </DangerZone>
        )}
      </div>
      {isAdmin && !contact.optOut && <EditContactDialog open={editing} onClose={() => setEditing(false)} contact={contact} />}
      <ConfirmDialog
        open={confirming === "finish"}
        onClose={() => setConfirming(false)}
        title={`Erase ${left?.name ?? "them"} from HQ's records?`}
        description={
          <>
            <p>This removes their name, phone and email from the knowledge base, internal agents&apos; memories and documents, and every other record of HQ and of {contact.clientName ?? "their client"} that still names them, then deletes what was kept for it.</p>
            <p className="mt-2 font-medium text-slate-900">It cannot be undone.</p>
          </>
        }
        phrase={left?.name ?? "erase"}
        confirmLabel="Erase from HQ's records"
        onConfirm={() => optOut.mutateAsync()}
      />
      <ConfirmDialog
        open={confirming === "keep"}
        onClose={() => setConfirming(false)}
        title="Keep HQ's records as they are?"
        description={<p>HQ&apos;s records stay unchanged, and the name, phone and email kept to erase them are deleted. Choose this when those records are about someone else.</p>}
        confirmLabel="Keep HQ's records"
        tone="primary"
        onConfirm={() => keep.mutateAsync()}
      />
      <ConfirmDialog
        open={confirming === "erase"}
        onClose={() => setConfirming(false)}
        title={`Opt out ${title} and erase their data?`}
        description={
          <>
            <p>This deletes their facts, suggestions, conversations, events and notes, removes their name, phone and email from every record that mentions them, and marks them opted out.</p>
            <p className="mt-2 font-medium text-slate-900">It cannot be undone.</p>
          </>
        }
        phrase={contact.name ?? "erase"}
        confirmLabel="Erase and opt out"
        onConfirm={() => optOut.mutateAsync()}
      />
    </>
  );
}

const PAGE_SIZE = 50;

/** Conversations with this contact as chats, the most recently active first, each with the agent that had it. */
function ConversationCard({ contactId }: { contactId: string }) {
  const agents = useAgents();
  const names = new Map(agents.data?.map((a) => [a.id, a.name]));
  return (
    <Card data-testid="contact-conversation">
      <CardHeader title="Conversations" description="Every conversation agents recorded with this contact, the most recently active first, each with the agent that had it." />
      <Conversations contactId={contactId} agentNames={names} showAgent pageParam="conversationsPage" emptyText="Agents record their messages with this contact as they happen." />
    </Card>
  );
}

/** Current facts, each followed by the versions it replaced (superseded, never deleted). */
function FactsCard({ contact, canWrite }: { contact: Contact; canWrite: boolean }) {
  const history = useFactHistory(contact.id);
  const [writing, setWriting] = useState<FactTarget | null>(null);
  const groups = new Map<string, Fact[]>();
  for (const f of history.data ?? []) groups.set(f.key, [...(groups.get(f.key) ?? []), f]);
  const target = (fact?: Fact): FactTarget => ({
    contactId: contact.id,
    clientId: contact.clientId,
    key: fact?.key,
    value: fact?.value,
    confidence: fact?.confidence,
    knownKeys: [...groups.keys()],
  });

  return (
    <Card>
      <CardHeader
        title="Facts"
        description={
          canWrite
            ? "Canonical memory: written by the memory manager and by HQ admins, under the same rules. Superseded versions are kept as history."
            : "Canonical memory: written only by the memory manager. Superseded versions are kept as history."
        }
        actions={
          canWrite && (
            <Button variant="secondary" size="sm" onClick={() => setWriting(target())}>
              Write a fact
            </Button>
          )
        }
      />
      {canWrite && <WriteFactDialog target={writing} onClose={() => setWriting(null)} />}
      {history.isPending ? (
        <LoadingState label="Loading facts…" rows={3} />
      ) : history.isError ? (
        <ErrorState error={history.error} onRetry={() => history.refetch()} retrying={history.isFetching} />
      ) : groups.size === 0 ? (
        <EmptyState title="No facts yet" description="Approved suggestions become facts here." />
      ) : (
        <Table cards>
          <THead>
            <tr>
              <Th>Key</Th>
              <Th>Value</Th>
              <Th>Confidence</Th>
              <Th>Written by</Th>
              <Th>When</Th>
              {canWrite && (
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              )}
            </tr>
          </THead>
          <TBody>
            {[...groups.entries()].map(([key, versions]) =>
              versions.map((f, i) => (
                // keyed by place, not id: a changed fact keeps its row (and its Change button, where the focus returns)
                <Tr key={`${key}:${i}`} data-testid="fact-row" data-status={f.status} className={f.status === "superseded" ? "bg-slate-50/60 text-slate-500" : undefined}>
                  <Td primary>{i === 0 ? <code className="font-mono text-xs font-semibold text-slate-800">{key}</code> : <span className="pl-3 text-xs text-slate-500">↳ earlier</span>}</Td>
                  <Td label="Value" className={cn("max-w-md wrap-anywhere", f.status === "superseded" ? "line-through decoration-slate-300" : "text-slate-900")}>{f.value}</Td>
                  <Td label="Confidence">
                    <Badge tone={f.status === "superseded" ? "neutral" : confidenceTone(f.confidence)}>{formatConfidence(f.confidence)}</Badge>
                    {f.status === "superseded" && <span className="ml-2 text-xs">superseded {formatRelative(f.supersededAt)}</span>}
                  </Td>
                  <Td label="Written by" className="text-xs">{f.writtenByName || f.writtenByType}</Td>
                  <Td label="When" className="text-xs">
                    <span title={formatDateTime(f.createdAt)}>{formatRelative(f.createdAt)}</span>
                  </Td>
                  {canWrite && (
                    <Td>
                      {f.status !== "superseded" && (
                        <Button variant="ghost" size="sm" onClick={() => setWriting(target(f))} aria-label={`Change ${f.key}`}>
                          Change
                        </Button>
                      )}
                    </Td>
                  )}
                </Tr>
              )),
            )}
          </TBody>
        </Table>
      )}
    </Card>
  );
}

const SUGGESTION_COLUMNS: Column<Suggestion>[] = [
  { id: "key", header: "Key", primary: true, cell: (s) => <code className="font-mono text-xs">{s.key}</code> },
  { id: "value", header: "Proposed value", className: "text-slate-900", cell: (s) => s.value },
  { id: "confidence", header: "Confidence", cell: (s) => <Badge tone={confidenceTone(s.confidence)}>{formatConfidence(s.confidence)}</Badge> },
  {
    id: "status",
    header: "Status",
    cell: (s) => (
      <>
        <Badge tone={STATUS_TONE[s.status]}>{s.status}</Badge>
        {s.reason && <span className="mt-1 block max-w-xs text-xs text-slate-500">{s.reason}</span>}
      </>
    ),
  },
  {
    id: "proposed",
    header: "Proposed by",
    className: "text-xs",
    cell: (s) => (
      <>
        {s.proposedByName} · <span title={formatDateTime(s.createdAt)}>{formatRelative(s.createdAt)}</span>
      </>
    ),
  },
];

function SuggestionsCard({ contactId }: { contactId: string }) {
  const view = useListUrl({}, "suggestionsPage");
  const suggestions = useSuggestionPages({ contactId }, { page: view.page, pageSize: PAGE_SIZE });
  return (
    <Card>
      <CardHeader title="Suggestions" description="What agents proposed about this contact and what became of it." />
      <DataTable
        list={suggestions}
        onPage={view.setPage}
        noun={["suggestion", "suggestions"]}
        aria-label="Suggestions about this contact"
        columns={SUGGESTION_COLUMNS}
        empty={<EmptyState title="No suggestions" />}
      />
    </Card>
  );
}
