"use client";

import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { Column } from "@/components/ui/data-list";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import type { AgentListItem } from "@/lib/console/types";
import { kbAccessLabel, KIND_LABEL, KIND_TONE, ROLE_LABEL } from "./agent-labels";
import { AgentStatusBadge } from "./agent-status-badge";

/** What "last active" was: the agent's newest key use, retrieval or audited write. */
const ACTIVITY_LABEL = { key: "key used", retrieval: "retrieved", write: "wrote" } as const;

export const AGENT_COLUMNS: Column<AgentListItem>[] = [
  {
    id: "name",
    header: "Name",
    primary: true,
    className: "max-w-xs",
    cell: (agent) => (
      <>
        <Link href={`/agents/${agent.id}`} className="font-medium text-slate-900 hover:text-indigo-600">
          {agent.name}
        </Link>
        {agent.description && <p className="mt-0.5 truncate text-xs text-slate-500">{agent.description}</p>}
      </>
    ),
  },
  { id: "kind", header: "Kind", cell: (agent) => <Badge tone={KIND_TONE[agent.kind]}>{KIND_LABEL[agent.kind]}</Badge> },
  { id: "role", header: "Role", cell: (agent) => ROLE_LABEL[agent.role] },
  { id: "client", header: "Client", cell: (agent) => agent.clientName ?? <span className="text-slate-500">—</span> },
  { id: "kb", header: "Knowledge base", cell: (agent) => kbAccessLabel(agent) },
  {
    id: "active",
    header: "Last active",
    title: "The newest of the agent's key use (to the minute), its own retrievals and its writes",
    cell: (agent) =>
      agent.lastActiveAt ? (
        <span title={`${formatDateTime(agent.lastActiveAt)}${agent.lastActivity ? ` (${ACTIVITY_LABEL[agent.lastActivity]})` : ""}`} data-testid="agent-last-active">
          {formatRelative(agent.lastActiveAt)}
          {agent.lastActivity && <span className="block text-xs text-slate-500">{ACTIVITY_LABEL[agent.lastActivity]}</span>}
        </span>
      ) : (
        <span className="text-slate-500" data-testid="agent-last-active">
          Never
        </span>
      ),
  },
  { id: "status", header: "Status", cell: (agent) => <AgentStatusBadge disabledAt={agent.disabledAt} /> },
];
