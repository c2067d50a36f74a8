"use client";

import Link from "next/link";
import { useEffect, useRef, type ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DataItems } from "@/components/ui/data-list";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { FilterBar } from "@/components/ui/filter-bar";
import { Input } from "@/components/ui/input";
import { LoadingState } from "@/components/ui/loading-state";
import { Select } from "@/components/ui/select";
import { cn } from "@/lib/console/cn";
import { formatDateTime, formatRelative, formatTimeRange, formatTurnTime, plural } from "@/lib/console/format";
import { highlightParts } from "@/lib/console/highlight";
import { useConversations, useInteractionSearch, useThread, type ConversationFilters } from "@/lib/console/hooks/memory";
import { useTypedFilter } from "@/lib/console/hooks/typed-filter";
import type { Conversation, Interaction } from "@/lib/console/memory-types";
import { pageNumber, useUrlState } from "@/lib/console/url-state";
import { TurnAttachments } from "./turn-attachments";

/** The channels offered in the filter before any conversation has shown others. */
const COMMON_CHANNELS = ["call", "chat", "email", "sms"];

/**
 * A thread's title: who it was with — the contact's name, else whoever spoke first on the
 * customer's side — never the agent's own speakers (a reminder Santos sent is not "Santos").
 */
export function threadTitle(c: { contactName: string | null; inboundSpeaker: string | null }): string {
  return c.contactName ?? c.inboundSpeaker ?? "Unknown contact";
}

const URL_KEYS = { q: "", channel: "", contact: "", thread: "", threadAgent: "", turn: "" };

export interface ConversationsProps {
  /** one agent's conversations (the agent's page) */
  agentId?: string;
  /** one contact's conversations (the contact's page) */
  contactId?: string;
  /** contacts offered in the contact filter (the agent's page); none: no contact filter */
  contacts?: { id: string; name: string }[];
  /** agents' names: who had each conversation, and who spoke on the agent's side */
  agentNames?: Map<string, string>;
  /** say in the list which agent had each conversation (the contact's page) */
  showAgent?: boolean;
  /** what the list says when there is nothing at all */
  emptyText: string;
  /** the address parameter of the list's page (a page with several lists names each one's) */
  pageParam?: string;
}

/**
 * Recorded conversations read as chats: a list of threads titled by who they were with (a page at a
 * time, filtered by contact and channel on the server), the open thread as bubbles by direction,
 * and a search whose hits open their whole thread at the turn that matched. The search, the filters,
 * the page and the open thread live in the address.
 */
export function Conversations({ agentId, contactId, contacts, agentNames, showAgent = false, emptyText, pageParam = "page" }: ConversationsProps) {
  const [url, setUrl] = useUrlState<string>({ ...URL_KEYS, [pageParam]: "1" });
  const view = { ...URL_KEYS, ...url };
  type Key = keyof typeof URL_KEYS | "page";
  // "page" stands for this list's own page parameter
  const setView = (changes: Partial<Record<Key, string | number | null>>, options?: { push?: boolean }) => {
    const { page: p, ...rest } = changes;
    setUrl("page" in changes ? { ...rest, [pageParam]: p } : rest, options);
  };
  const [search, setSearch, typing] = useTypedFilter(view.q, (q) => setView({ q, page: null }));
  const page = pageNumber(url[pageParam] ?? "1");
  const q = view.q.trim();
  const filters: ConversationFilters = {
    agentId,
    contactId: contactId ?? (view.contact || undefined),
    channel: view.channel || undefined,
  };
  const conversations = useConversations(filters, page, { enabled: !q });
  const hits = useInteractionSearch({ ...filters, q }, page, { enabled: Boolean(q) });
  const list = q ? hits : conversations;
  const open = view.thread && view.threadAgent ? { agentId: view.threadAgent, conversation: view.thread } : null;
  const filtered = Boolean(q || view.channel || (!contactId && view.contact));
  const seenChannels = conversations.rows.flatMap((c) => c.channels).concat(hits.rows.map((h) => h.channel));
  const channels = [...new Set([...COMMON_CHANNELS, ...seenChannels, ...(view.channel ? [view.channel] : [])])].sort();
  const hitContacts = new Map(hits.answer?.contacts.map((c) => [c.id, c.name]));

  const openThread = (c: { agentId: string; conversation: string }, turn?: string) =>
    setView({ thread: c.conversation, threadAgent: c.agentId, turn: turn ?? null }, { push: true });
  const closeThread = () => setView({ thread: null, threadAgent: null, turn: null }, { push: true });

  return (
    <div>
      <form role="search" aria-label="Search conversations" onSubmit={(e) => e.preventDefault()} noValidate className="border-b border-slate-200 px-5 pt-4">
        <FilterBar
          active={[view.channel, !contactId && view.contact].filter(Boolean).length}
          onClear={
            filtered
              ? () => {
                  setSearch("");
                  setView({ q: null, channel: null, contact: null, page: null });
                }
              : undefined
          }
          busy={list.isFetching && !list.isPending && "Loading"}
          primary={
            <label className="text-xs font-medium text-slate-600">
              Search messages
              <Input
                className="mt-1 w-72"
                type="search"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                placeholder="e.g. boiler service"
                aria-label="Search messages"
              />
            </label>
          }
        >
          {contacts && (
            <label className="text-xs font-medium text-slate-600">
              Contact
              <Select
                className="mt-1 w-52"
                value={view.contact}
                onChange={(e) => setView({ contact: e.target.value, page: null })}
                options={[{ value: "", label: "All contacts" }, ...contacts.map((c) => ({ value: c.id, label: c.name }))]}
              />
            </label>
          )}
          <label className="text-xs font-medium text-slate-600">
            Channel
            <Select
              className="mt-1 w-40"
              value={view.channel}
              onChange={(e) => setView({ channel: e.target.value, page: null })}
              options={[{ value: "", label: "All channels" }, ...channels.map((c) => ({ value: c, label: c }))]}
            />
          </label>
        </FilterBar>
      </form>

      <div className="lg:grid lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] lg:divide-x lg:divide-slate-200">
        <div className={cn("min-w-0", open && "max-lg:hidden")}>
          {q ? (
            <DataItems
              list={typing ? { ...hits, isPending: true } : hits}
              onPage={(p) => setView({ page: p }, { push: true })}
              noun={["message", "messages"]}
              loadingLabel="Searching…"
              aria-label="Messages that match the search"
              rowKey={(t) => t.id}
              estimateRowHeight={96}
              caption={<p className="border-b border-slate-100 px-5 py-2 text-xs text-slate-500">Messages with “{q}”, newest first. Open one to read its whole conversation.</p>}
              empty={<EmptyState title="Nothing matches" description={`No message has “${q}”. Try other words, or clear the filters.`} />}
              renderItem={(t) => (
                <SearchHit
                  turn={t}
                  title={threadTitle({ contactName: t.contactId ? (hitContacts.get(t.contactId) ?? null) : null, inboundSpeaker: t.direction === "inbound" && t.speaker ? t.speaker : null })}
                  query={q}
                  agentName={showAgent ? agentNames?.get(t.agentId) : undefined}
                  selected={open?.conversation === t.conversation && open.agentId === t.agentId && view.turn === t.id}
                  onOpen={() => openThread(t, t.id)}
                />
              )}
            />
          ) : (
            <DataItems
              list={conversations}
              onPage={(p) => setView({ page: p }, { push: true })}
              noun={["conversation", "conversations"]}
              loadingLabel="Loading conversations…"
              aria-label="Conversations"
              rowKey={(c) => `${c.agentId}/${c.conversation}`}
              estimateRowHeight={88}
              empty={<EmptyState title={filtered ? "No conversation matches these filters" : "No conversations yet"} description={filtered ? "Try another contact or channel, or clear the filters." : emptyText} />}
              renderItem={(c) => (
                <ConversationRow
                  conversation={c}
                  agentName={showAgent ? (agentNames?.get(c.agentId) ?? c.agentName ?? "An agent") : undefined}
                  selected={open?.conversation === c.conversation && open.agentId === c.agentId}
                  onOpen={() => openThread(c)}
                />
              )}
            />
          )}
        </div>
        <div className={cn("min-w-0", !open && "max-lg:hidden")}>
          {open ? (
            <ChatThread key={`${open.agentId}/${open.conversation}`} thread={open} turnId={view.turn || null} query={q} agentNames={agentNames} onClose={closeThread} />
          ) : (
            <EmptyState title="No conversation open" description="Choose a conversation, or a message that matches a search, to read the whole thread." />
          )}
        </div>
      </div>
    </div>
  );
}

function Channels({ channels }: { channels: string[] }) {
  return (
    <>
      {channels.map((c) => (
        <Badge key={c}>{c}</Badge>
      ))}
    </>
  );
}

/** One row of the list: a button that opens its thread, marked while that thread is open. */
function RowButton({
  testId,
  selected,
  onOpen,
  title,
  badges,
  time,
  meta,
  children,
}: {
  testId: string;
  selected: boolean;
  onOpen: () => void;
  title: string;
  badges: ReactNode;
  time: string;
  meta: ReactNode;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-current={selected || undefined}
      data-testid={testId}
      className={cn(
        "block w-full px-5 py-3 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600",
        selected && "bg-indigo-50/70 hover:bg-indigo-50",
      )}
    >
      <span className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <span className="truncate text-sm font-semibold text-slate-900">{title}</span>
        {badges}
        <span className="ml-auto text-xs text-slate-600">{time}</span>
      </span>
      <span className="mt-0.5 block text-xs text-slate-600">{meta}</span>
      {children}
    </button>
  );
}

function ConversationRow({ conversation: c, agentName, selected, onOpen }: { conversation: Conversation; agentName?: string; selected: boolean; onOpen: () => void }) {
  return (
    <RowButton
      testId="conversation-row"
      selected={selected}
      onOpen={onOpen}
      title={threadTitle(c)}
      badges={<Channels channels={c.channels} />}
      time={formatRelative(c.endedAt)}
      meta={
        <>
          {formatTimeRange(c.startedAt, c.endedAt)} · {plural(c.turns, "message")}
          {agentName && <> · with {agentName}</>}
        </>
      }
    >
      <span className="mt-1 block truncate text-sm text-slate-700">
        {c.lastTurn.speaker && <span className="font-medium">{c.lastTurn.speaker}: </span>}
        {c.lastTurn.content}
      </span>
    </RowButton>
  );
}

function SearchHit({ turn, title, query, agentName, selected, onOpen }: { turn: Interaction; title: string; query: string; agentName?: string; selected: boolean; onOpen: () => void }) {
  return (
    <RowButton
      testId="search-hit"
      selected={selected}
      onOpen={onOpen}
      title={title}
      badges={<Badge>{turn.channel}</Badge>}
      time={formatDateTime(turn.occurredAt)}
      meta={
        <>
          {turn.speaker || (turn.direction === "inbound" ? "Contact" : "Agent")} · {turn.direction === "inbound" ? "inbound" : "outbound"}
          {agentName && <> · with {agentName}</>}
        </>
      }
    >
      <span className="mt-1 line-clamp-3 block text-sm text-slate-700">
        <Highlighted text={turn.content} query={query} />
      </span>
    </RowButton>
  );
}

/** `text` with the words a search matched marked. */
function Highlighted({ text, query }: { text: string; query: string }) {
  if (!query) return <>{text}</>;
  return (
    <>
      {highlightParts(text, query).map((p, i) =>
        p.hit ? (
          <mark key={i} className="rounded-sm bg-amber-200/80 px-0.5 text-slate-900">
            {p.text}
          </mark>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}

/**
 * One whole conversation as a chat: the contact's turns (inbound) on the left, the agent's
 * (outbound) on the right, each labelled with who spoke and on which side. Opened from a search
 * hit, the turn that matched is scrolled to and marked.
 */
function ChatThread({
  thread,
  turnId,
  query,
  agentNames,
  onClose,
}: {
  thread: { agentId: string; conversation: string };
  turnId: string | null;
  query: string;
  agentNames?: Map<string, string>;
  onClose: () => void;
}) {
  const data = useThread(thread);
  const marked = useRef<HTMLLIElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const { turns, contacts, complete } = data;
  const found = turnId !== null && turns.some((t) => t.id === turnId);
  useEffect(() => {
    if (!complete) return;
    // the marked turn in view; otherwise the thread's heading, so a keyboard user lands in it
    if (found && marked.current) marked.current.scrollIntoView({ block: "center" });
    else heading.current?.focus({ preventScroll: true });
  }, [complete, found]);

  let body: ReactNode;
  if (data.isPending) body = <LoadingState label="Loading the conversation…" rows={4} />;
  else if (data.isError) body = <ErrorState error={data.error} onRetry={() => data.refetch()} retrying={data.isFetching} />;
  else if (turns.length === 0) body = <EmptyState title="This conversation is empty" description="Its messages were erased, or the link is out of date." />;

  const first = turns[0];
  const last = turns[turns.length - 1];
  const contactId = turns.find((t) => t.contactId)?.contactId ?? null;
  const contactName = contactId ? (contacts.get(contactId) ?? null) : null;
  const title = threadTitle({ contactName, inboundSpeaker: turns.find((t) => t.direction === "inbound" && t.speaker)?.speaker ?? null });
  const agentName = agentNames?.get(thread.agentId);
  const channels = [...new Set(turns.map((t) => t.channel))].sort();

  return (
    <section aria-labelledby="thread-title" data-testid="chat-thread" className="lg:sticky lg:top-14">
      <header className="flex flex-wrap items-start gap-x-3 gap-y-2 border-b border-slate-200 px-5 py-3">
        <Button variant="secondary" size="sm" className="lg:hidden" onClick={onClose}>
          ← All conversations
        </Button>
        <div className="min-w-0 max-lg:basis-full lg:flex-1">
          <h3 id="thread-title" ref={heading} tabIndex={-1} className="truncate text-base font-semibold text-slate-900 focus:outline-none">
            {first ? title : "Conversation"}
          </h3>
          {first && last && (
            <p className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500">
              <Channels channels={channels} />
              <span>{formatTimeRange(first.occurredAt, last.occurredAt)}</span>
              <span>{plural(turns.length, "message")}</span>
              {agentName && (
                <Link href={`/agents/${thread.agentId}?tab=interactions`} className="font-medium text-indigo-600 hover:text-indigo-500">
                  Agent: {agentName}
                </Link>
              )}
              {first.conversationId && (
                <span className="truncate font-mono" title="The conversationId the agent sent">
                  thread {first.conversationId}
                </span>
              )}
            </p>
          )}
        </div>
        <Button variant="ghost" size="sm" className="max-lg:hidden" onClick={onClose}>
          Close
        </Button>
      </header>
      {body ?? (
        <ol className="space-y-3 px-4 py-4 lg:max-h-[calc(100vh-9.5rem)] lg:overflow-y-auto" aria-label={`Messages with ${title}`} tabIndex={0}>
          {turns.map((t, i) => {
            const inbound = t.direction === "inbound";
            const isMarked = t.id === turnId;
            const who = t.speaker || (inbound ? title : (agentName ?? "Agent"));
            const side = inbound ? "contact" : agentName && agentName !== t.speaker ? `agent ${agentName}` : "agent";
            return (
              <li
                key={t.id}
                ref={isMarked ? marked : undefined}
                id={`turn-${t.id}`}
                data-testid="chat-turn"
                data-direction={t.direction}
                data-marked={isMarked || undefined}
                aria-current={isMarked || undefined}
                className={cn("flex scroll-mt-24", inbound ? "justify-start" : "justify-end")}
              >
                <div className={cn("max-w-[85%] sm:max-w-[75%]", inbound ? "items-start" : "items-end")}>
                  <p className={cn("mb-1 flex flex-wrap items-baseline gap-x-1.5 text-xs", inbound ? "" : "justify-end")}>
                    <span className="font-semibold text-slate-800">{who}</span>
                    <span className="text-slate-500">({side})</span>
                    <span className="text-slate-500">{formatTurnTime(t.occurredAt, turns[i - 1]?.occurredAt)}</span>
                    {channels.length > 1 && <Badge>{t.channel}</Badge>}
                    {!t.embedded && <Badge tone="amber">Queued for embedding</Badge>}
                  </p>
                  <div
                    data-testid="chat-text"
                    className={cn(
                      "rounded-2xl px-3.5 py-2 text-sm whitespace-pre-wrap",
                      inbound ? "rounded-tl-sm bg-slate-100 text-slate-900" : "rounded-tr-sm bg-indigo-600 text-white",
                      isMarked && "ring-2 ring-amber-400 ring-offset-2",
                    )}
                  >
                    <Highlighted text={t.content} query={isMarked ? query : ""} />
                  </div>
                  <TurnAttachments attachments={t.attachments} />
                  {isMarked && <p className="mt-1 text-xs font-medium text-amber-800">The message the search found</p>}
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
