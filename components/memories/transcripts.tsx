"use client";

import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { formatDateTime, plural } from "@/lib/console/format";
import type { Interaction } from "@/lib/console/memory-types";
import { TurnAttachments } from "./turn-attachments";

export interface Transcript {
  /** the conversation: its agent, and the agent's conversationId or the one inferred for it */
  key: string;
  /** the caller's own thread id, when it sent one */
  threadId: string | null;
  /** turns in conversation order: by time, then the order they were recorded */
  turns: Interaction[];
}

/**
 * Interactions listed newest first (the API's order, across pages) as conversations: newest
 * conversation first, each one's turns in conversation order (the reverse of the listing's). A
 * conversation is one agent's: two agents that use the same thread id hold two conversations.
 */
export function groupTranscripts(newestFirst: Interaction[]): Transcript[] {
  const byKey = new Map<string, Transcript>();
  for (const turn of newestFirst) {
    const key = `${turn.agentId}:${turn.conversation}`;
    let t = byKey.get(key);
    if (!t) byKey.set(key, (t = { key, threadId: turn.conversationId, turns: [] }));
    t.turns.unshift(turn);
  }
  return [...byKey.values()];
}

/** One conversation: its channel, people and time span, then every turn in order. */
export function TranscriptView({ transcript, renderMeta }: { transcript: Transcript; renderMeta?: (turn: Interaction) => ReactNode }) {
  const { turns, threadId } = transcript;
  const first = turns[0]!;
  const last = turns[turns.length - 1]!;
  const channels = [...new Set(turns.map((t) => t.channel))];
  const speakers = [...new Set(turns.map((t) => t.speaker).filter(Boolean))];
  return (
    <section className="px-5 py-4" data-testid="transcript" aria-label={`Conversation ${threadId ?? ""}`.trim()}>
      <header className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-xs text-slate-600">
        <span className="text-sm font-medium text-slate-900">{speakers.length ? speakers.join(", ") : "Conversation"}</span>
        {channels.map((c) => (
          <Badge key={c}>{c}</Badge>
        ))}
        <span>
          {formatDateTime(first.occurredAt)}
          {last.occurredAt !== first.occurredAt && ` – ${formatDateTime(last.occurredAt)}`}
        </span>
        <span>{plural(turns.length, "message")}</span>
        {threadId && (
          <span className="truncate font-mono text-slate-500" title="The conversationId the agent sent">
            thread {threadId}
          </span>
        )}
      </header>
      <ol className="mt-2 space-y-2 border-l-2 border-slate-200 pl-3">
        {turns.map((t, i) => (
          <li key={t.id} data-testid="interaction-row">
            <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
              <Badge tone={t.direction === "inbound" ? "blue" : "violet"}>{t.direction === "inbound" ? "In" : "Out"}</Badge>
              {t.speaker && <span className="font-medium text-slate-700">{t.speaker}</span>}
              {/* a turn's time when it differs from the one before (a transcript often shares one) */}
              {i > 0 && t.occurredAt !== turns[i - 1]!.occurredAt && <span>{formatDateTime(t.occurredAt)}</span>}
              {renderMeta?.(t)}
              {!t.embedded && <Badge tone="amber">Queued for embedding</Badge>}
            </div>
            <p className="mt-1 text-sm whitespace-pre-wrap text-slate-800">{t.content}</p>
            <TurnAttachments attachments={t.attachments} />
          </li>
        ))}
      </ol>
    </section>
  );
}
