"use client";

import Link from "next/link";
import { Fragment, useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { RowPlace } from "@/components/ui/data-list";
import { Td, Tr } from "@/components/ui/table";
import { actionLabel } from "@/lib/audit/labels";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import type { AuditEntry } from "@/lib/console/types";

const ACTOR: Record<string, { label: string; tone: BadgeTone }> = {
  agent: { label: "Agent", tone: "violet" },
  hq_user: { label: "HQ user", tone: "indigo" },
  admin_key: { label: "Admin key", tone: "amber" },
  system: { label: "System", tone: "neutral" },
};

const TARGET_LABEL: Record<string, string> = {
  agent: "Agent",
  client: "Client",
  memory: "Memory",
  knowledge_entry: "Knowledge entry",
  contact: "Contact",
  suggestion: "Suggestion",
  hq_user: "HQ user",
  locked_constant: "Locked constant",
  mission: "Mission",
  playbook_update: "Playbook update",
  interaction: "Message",
  event: "Event",
  agent_note: "24-hour note",
  agent_notes: "24-hour notes",
  review: "Review queue",
  embeddings: "Embeddings",
  escalation: "Escalation",
  lifecycle: "Consolidation",
};

// uuids are shortened; readable ids (a locked constant's key) are shown whole
const shortId = (id: string) => (/^[0-9a-f]{8}-[0-9a-f-]{27}$/i.test(id) ? `${id.slice(0, 8)}…` : id);

/** Where a target lives in the console, when it has a page. */
function targetHref(e: AuditEntry): string | null {
  const id = e.targetId;
  switch (e.targetType) {
    case "agent":
      return id ? `/agents/${id}` : null;
    case "client":
      return id ? `/clients/${id}` : null;
    case "knowledge_entry":
      return id ? `/knowledge/${id}` : null;
    case "contact":
      return id ? `/contacts/${id}` : null;
    case "memory":
      // decisions have their own tab, with their outcomes
      return e.agentId ? `/agents/${e.agentId}?tab=${e.action === "memory.outcome" || e.details?.category === "decision" ? "decisions" : "memories"}` : null;
    case "suggestion":
    case "review":
      return "/review";
    case "hq_user":
      return "/users";
    case "locked_constant":
      return "/constants";
    case "escalation":
      return "/escalations";
    case "interaction":
      return e.agentId ? `/agents/${e.agentId}?tab=interactions` : null;
    default:
      return e.agentId ? `/agents/${e.agentId}` : null;
  }
}

export function AuditRow({ entry, place }: { entry: AuditEntry; place?: RowPlace }) {
  const [open, setOpen] = useState(false);
  const actor = ACTOR[entry.actorType] ?? { label: entry.actorType, tone: "neutral" as const };
  const hasDetails = entry.details && Object.keys(entry.details).length > 0;
  const detailsId = `audit-details-${entry.id}`;

  return (
    <Fragment>
      <Tr {...place} data-testid="audit-row" data-action={entry.action}>
        <Td className="whitespace-nowrap" label="Time">
          <span className="text-slate-900">{formatDateTime(entry.occurredAt)}</span>
          <span className="block text-xs text-slate-500">{formatRelative(entry.occurredAt)}</span>
        </Td>
        <Td label="Actor">
          <div className="flex items-center gap-2">
            <Badge tone={actor.tone}>{actor.label}</Badge>
            {entry.actorType === "agent" && entry.actorId ? (
              <Link href={`/agents/${entry.actorId}`} className="truncate font-medium text-slate-900 hover:text-indigo-600">
                {entry.actorName || "Agent"}
              </Link>
            ) : (
              <span className="truncate text-slate-900">{entry.actorName || "—"}</span>
            )}
          </div>
        </Td>
        <Td primary>
          <span className="font-medium text-slate-900 sm:font-normal" title={entry.action}>
            {actionLabel(entry.action, entry.details)}
          </span>
        </Td>
        <Td className="max-w-xs" label="Target">
          <Target entry={entry} />
        </Td>
        <Td className="whitespace-nowrap" label="Client">
          {entry.clientId ? (
            <Link href={`/clients/${entry.clientId}`} className="text-slate-900 hover:text-indigo-600">
              {entry.clientName ?? shortId(entry.clientId)}
            </Link>
          ) : (
            <span className="text-slate-500">—</span>
          )}
        </Td>
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
            <p className="mb-2 text-xs text-slate-500">
              Action code <code className="font-mono text-slate-700">{entry.action}</code>
              {entry.targetId && (
                <>
                  {" "}
                  · target id <code className="font-mono text-slate-700">{entry.targetId}</code>
                </>
              )}
            </p>
            <pre tabIndex={0} className="max-h-72 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">
              {JSON.stringify(entry.details, null, 2)}
            </pre>
          </td>
        </tr>
      )}
    </Fragment>
  );
}

/** A recorded message reads by what it was ("Inbound sms message"), its id telling a reader little. */
function messageKind(e: AuditEntry): string | null {
  if (e.targetType !== "interaction" || typeof e.details?.channel !== "string") return null;
  const direction = typeof e.details.direction === "string" ? `${e.details.direction} ` : "";
  const words = `${direction}${e.details.channel} message`;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function Target({ entry }: { entry: AuditEntry }) {
  if (!entry.targetType && !entry.targetId) return <span className="text-slate-500">—</span>;
  const label = TARGET_LABEL[entry.targetType] ?? entry.targetType.replace(/_/g, " ");
  const fallback = typeof entry.details?.email === "string" ? entry.details.email : typeof entry.details?.name === "string" ? entry.details.name : null;
  const name = entry.targetName ?? fallback;
  const href = targetHref(entry);
  const text = name ?? messageKind(entry) ?? (entry.targetId ? shortId(entry.targetId) : null);
  // a memory or document entry also names the agent it belongs to
  const ofAgent = entry.agentName && entry.targetType !== "agent" && entry.agentName !== entry.actorName ? entry.agentName : null;
  return (
    <span className="block">
      <span className="block text-xs text-slate-500">{label}</span>
      {text &&
        (href ? (
          <Link href={href} className="line-clamp-2 font-medium text-slate-900 hover:text-indigo-600" data-testid="audit-target">
            {text}
          </Link>
        ) : (
          <span className="line-clamp-2 text-slate-900" data-testid="audit-target">
            {text}
          </span>
        ))}
      {ofAgent && <span className="block text-xs text-slate-500">of {ofAgent}</span>}
    </span>
  );
}
