import { DescriptionList } from "@/components/ui/description-list";
import { formatDateTime } from "@/lib/console/format";
import type { Memory } from "@/lib/console/memory-types";
import { DecisionContextView } from "./decision-context";

/** Everything stored about one memory, under its row. */
export function MemoryDetails({ memory: m }: { memory: Memory }) {
  return (
    <div className="space-y-4 text-sm">
      {m.content ? <p className="whitespace-pre-wrap text-slate-700">{m.content}</p> : <p className="text-slate-500">No content beyond the title.</p>}
      {m.decisionContext && <DecisionContextView context={m.decisionContext} />}
      <DescriptionList
        items={[
          { label: "Source", value: m.source || "—" },
          { label: "Surprise", value: m.surpriseScore === null ? "—" : m.surpriseScore.toFixed(2) },
          { label: "Occurred", value: formatDateTime(m.occurredAt) },
          { label: "Last used", value: formatDateTime(m.lastAccessedAt) },
          { label: "Expires", value: formatDateTime(m.expiresAt) },
          { label: "Trace id", value: m.sourceTraceId ?? "—" },
          { label: "Version", value: String(m.version) },
          { label: "Id", value: <code className="font-mono text-xs">{m.id}</code> },
        ]}
      />
    </div>
  );
}
