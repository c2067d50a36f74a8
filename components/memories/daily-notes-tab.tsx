"use client";

import { useState } from "react";
import { Card, CardHeader } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { LoadingState } from "@/components/ui/loading-state";
import { cn } from "@/lib/console/cn";
import { formatDate } from "@/lib/console/format";
import { useDailyNotes } from "@/lib/console/hooks/memory";
import { DocumentEditor } from "./document-editor";

// a date-only string read as UTC midnight, so "2026-02-14" never shows as the 13th
const dayLabel = (date: string) => formatDate(`${date}T12:00:00Z`);

/** Daily notes: one per date; the list on the left, the chosen day's note on the right. */
export function DailyNotesTab({ agentId, canEdit }: { agentId: string; canEdit: boolean }) {
  const notes = useDailyNotes(agentId);
  const [picked, setPicked] = useState<string | null>(null);

  if (notes.isPending) return <LoadingState label="Loading daily notes…" />;
  if (notes.isError) return <ErrorState error={notes.error} onRetry={() => notes.refetch()} retrying={notes.isFetching} />;

  const { today } = notes.data;
  const selected = picked ?? today;
  const dates = notes.data.notes.some((n) => n.date === today) ? notes.data.notes : [{ date: today, version: 0, chars: 0, updatedAt: "" }, ...notes.data.notes];

  return (
    <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
      <Card className="self-start">
        <CardHeader title="Days" description="Notes older than 7 days are archived by the lifecycle job." />
        <nav aria-label="Daily notes" className="max-h-[28rem] overflow-y-auto py-1">
          {dates.map((n) => (
            <button
              key={n.date}
              type="button"
              onClick={() => setPicked(n.date)}
              aria-current={n.date === selected ? "date" : undefined}
              className={cn(
                "flex w-full items-center justify-between px-5 py-2 text-left text-sm hover:bg-slate-50",
                n.date === selected ? "bg-indigo-50 font-medium text-indigo-700" : "text-slate-700",
              )}
            >
              <span>
                {dayLabel(n.date)}
                {n.date === today && <span className="ml-1.5 text-xs text-slate-600">today</span>}
              </span>
              <span className="text-xs text-slate-600 tabular-nums">{n.version ? `${n.chars} ch` : "empty"}</span>
            </button>
          ))}
        </nav>
        <div className="border-t border-slate-200 px-5 py-3">
          <Field label="Open another day">
            <Input type="date" value={selected} max={today} onChange={(e) => e.target.value && setPicked(e.target.value)} />
          </Field>
        </div>
      </Card>
      <DocumentEditor
        key={selected}
        agentId={agentId}
        type="daily"
        date={selected}
        title={`Daily note — ${dayLabel(selected)}`}
        description="What was done, blockers, and the plan for tomorrow."
        canEdit={canEdit}
        placeholder={"# Daily Note\n\n## Completed\n- \n\n## Blockers\n\n## Tomorrow\n- "}
      />
    </div>
  );
}
