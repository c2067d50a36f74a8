"use client";

import { categoryLabel } from "@/components/knowledge/labels";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { formatDateTime } from "@/lib/console/format";
import type { RetrievedItem } from "@/lib/console/retrieval-types";
import { SCOPE_LABELS, SCOPE_TONES } from "./retrieval-labels";

function describeMeta(item: RetrievedItem): string {
  const m = item.meta ?? {};
  const parts: string[] = [];
  if (typeof m.tier === "string" && typeof m.category === "string") parts.push(`${categoryLabel(m.tier)} · ${categoryLabel(m.category).toLowerCase()}`);
  else if (typeof m.category === "string") parts.push(categoryLabel(m.category));
  if (typeof m.channel === "string") parts.push(`${m.channel} ${String(m.direction ?? "")}`.trim());
  if (typeof m.fullTextRank === "number") parts.push(`text #${m.fullTextRank}`);
  if (typeof m.semanticRank === "number") parts.push(`vector #${m.semanticRank}`);
  if (typeof m.lexicalScore === "number") parts.push(`words ${m.lexicalScore.toFixed(2)}`);
  if (typeof m.similarity === "number") parts.push(`similarity ${m.similarity.toFixed(2)}`);
  if (typeof m.contextSimilarity === "number") parts.push(`with neighbours ${m.contextSimilarity.toFixed(2)}`);
  if (typeof m.conversationCoverage === "number") parts.push(`conversation covers ${Math.round(m.conversationCoverage * 100)}%`);
  if (Array.isArray(m.answerKinds) && m.answerKinds.length) parts.push(`holds the ${m.answerKinds.join(" and ")} asked for`);
  return parts.join(" · ");
}

/** Every retrieved item, best first, with its source, score and why it ranked (text and vector ranks). */
export function RetrievedItems({ items }: { items: RetrievedItem[] }) {
  if (!items.length) {
    return (
      <EmptyState
        title="Nothing retrieved"
        description="The level called for no search, or nothing the agent may read is relevant enough to the message."
      />
    );
  }
  return (
    <Table cards aria-label="Retrieved items">
      <THead>
        <Tr>
          <Th className="w-10">#</Th>
          <Th>Source</Th>
          <Th>Item</Th>
          <Th className="w-32">Score</Th>
          <Th>Time</Th>
        </Tr>
      </THead>
      <TBody>
        {items.map((item, i) => (
          <Tr key={`${item.source}:${item.id}`} data-testid="retrieved-item">
            <Td label="Rank" className="text-slate-500 tabular-nums">{i + 1}</Td>
            <Td label="Source">
              <Badge tone={SCOPE_TONES[item.source]}>{SCOPE_LABELS[item.source]}</Badge>
            </Td>
            <Td primary className="max-w-xl">
              <p className="font-medium text-slate-900">{item.title}</p>
              {item.content && item.content !== item.title && (
                <p className="mt-0.5 line-clamp-2 text-xs text-slate-500">{item.content}</p>
              )}
              <p className="mt-0.5 text-xs text-slate-500">{describeMeta(item)}</p>
            </Td>
            <Td label="Score">
              <div className="flex items-center gap-2">
                <div className="h-1.5 w-14 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                  <div className="h-full rounded-full bg-indigo-500" style={{ width: `${Math.round(item.score * 100)}%` }} />
                </div>
                <span className="text-xs text-slate-700 tabular-nums" data-testid="retrieved-item-score">
                  {item.score.toFixed(3)}
                </span>
              </div>
            </Td>
            <Td label="Time" className="text-xs whitespace-nowrap text-slate-500">{formatDateTime(item.createdAt)}</Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}
