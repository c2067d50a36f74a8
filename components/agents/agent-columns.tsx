"use client";

import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { Column } from "@/components/ui/data-list";
import type { Agent } from "@/lib/console/types";
import { KB_LABEL, KIND_LABEL, KIND_TONE, ROLE_LABEL } from "./agent-labels";
import { AgentStatusBadge } from "./agent-status-badge";

export const AGENT_COLUMNS: Column<Agent>[] = [
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
  { id: "kb", header: "Knowledge base", cell: (agent) => KB_LABEL[agent.kbAccess] },
  { id: "status", header: "Status", cell: (agent) => <AgentStatusBadge disabledAt={agent.disabledAt} /> },
];
