"use client";

import Link from "next/link";
import { Fragment, useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Td, Tr } from "@/components/ui/table";
import { formatDateTime, formatRelative } from "@/lib/client/format";
import type { AuditEntry } from "@/lib/client/types";

const ACTOR: Record<string, { label: string; tone: BadgeTone }> = {
  agent: { label: "Agent", tone: "violet" },
  hq_user: { label: "HQ user", tone: "indigo" },
  admin_key: { label: "Admin key", tone: "amber" },
  system: { label: "System", tone: "neutral" },
};

// uuids are shortened; readable ids (a locked constant's key) are shown whole
const shortId = (id: string) => (/^[0-9a-f]{8}-[0-9a-f-]{27}$/i.test(id) ? `${id.slice(0, 8)}…` : id);

export function AuditRow({
  entry,
  agentNames,
  clientNames,
}: {
  entry: AuditEntry;
  agentNames: Map<string, string>;
  clientNames: Map<string, string>;
}) {
  const [open, setOpen] = useState(false);
  const actor = ACTOR[entry.actorType] ?? { label: entry.actorType, tone: "neutral" as const };
  const hasDetails = entry.details && Object.keys(entry.details).length > 0;
  const detailsId = `audit-details-${entry.id}`;

  return (
    <Fragment>
      <Tr data-testid="audit-row" data-action={entry.action}>
        <Td className="whitespace-nowrap">
          <span title={formatDateTime(entry.occurredAt)} className="text-slate-900">
            {formatDateTime(entry.occurredAt)}
          </span>
          <span className="block text-xs text-slate-500">{formatRelative(entry.occurredAt)}</span>
        </Td>
        <Td>
          <div className="flex items-center gap-2">
            <Badge tone={actor.tone}>{actor.label}</Badge>
            <span className="truncate text-slate-900">{entry.actorName || "—"}</span>
          </div>
        </Td>
        <Td>
          <code className="font-mono text-xs text-slate-800">{entry.action}</code>
        </Td>
        <Td className="whitespace-nowrap">
          <Target entry={entry} agentNames={agentNames} />
        </Td>
        <Td className="whitespace-nowrap">{entry.clientId ? clientNames.get(entry.clientId) ?? <code className="font-mono text-xs">{shortId(entry.clientId)}</code> : <span className="text-slate-400">—</span>}</Td>
        <Td className="text-right">
          {hasDetails && (
            <button
              type="button"
              onClick={() => setOpen((o) => !o)}
              aria-expanded={open}
              aria-controls={detailsId}
              className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium text-indigo-600 hover:bg-indigo-50"
            >
              {open ? "Hide" : "Details"}
              <svg viewBox="0 0 20 20" fill="currentColor" className={`size-3.5 transition-transform ${open ? "rotate-180" : ""}`} aria-hidden="true">
                <path fillRule="evenodd" d="M5.22 8.22a.75.75 0 0 1 1.06 0L10 11.94l3.72-3.72a.75.75 0 1 1 1.06 1.06l-4.25 4.25a.75.75 0 0 1-1.06 0L5.22 9.28a.75.75 0 0 1 0-1.06Z" clipRule="evenodd" />
              </svg>
            </button>
          )}
        </Td>
      </Tr>
      {open && (
        <tr id={detailsId} className="bg-slate-50">
          <td colSpan={6} className="px-5 py-3">
            <pre className="max-h-72 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">
              {JSON.stringify(entry.details, null, 2)}
            </pre>
          </td>
        </tr>
      )}
    </Fragment>
  );
}

function Target({ entry, agentNames }: { entry: AuditEntry; agentNames: Map<string, string> }) {
  if (!entry.targetType && !entry.targetId) return <span className="text-slate-400">—</span>;
  const label = entry.targetType.replace(/_/g, " ");
  if (entry.targetType === "agent" && entry.targetId) {
    return (
      <span>
        <span className="text-xs text-slate-500">{label} </span>
        <Link href={`/agents/${entry.targetId}`} className="font-medium text-slate-900 hover:text-indigo-600">
          {agentNames.get(entry.targetId) ?? shortId(entry.targetId)}
        </Link>
      </span>
    );
  }
  const name = typeof entry.details?.email === "string" ? entry.details.email : typeof entry.details?.name === "string" ? entry.details.name : null;
  return (
    <span>
      <span className="text-xs text-slate-500">{label} </span>
      {name ? (
        <span className="text-slate-900">{name}</span>
      ) : entry.targetId ? (
        <code className="font-mono text-xs text-slate-700" title={entry.targetId}>
          {shortId(entry.targetId)}
        </code>
      ) : null}
    </span>
  );
}
