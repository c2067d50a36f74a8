"use client";

import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import type { Agent } from "@/lib/console/types";
import { KB_LABEL, KIND_LABEL, KIND_TONE, ROLE_LABEL } from "./agent-labels";
import { AgentStatusBadge } from "./agent-status-badge";

export function AgentsTable({ agents }: { agents: Agent[] }) {
  return (
    <Table cards>
      <THead>
        <tr>
          <Th>Name</Th>
          <Th>Kind</Th>
          <Th>Role</Th>
          <Th>Client</Th>
          <Th>Knowledge base</Th>
          <Th>Status</Th>
        </tr>
      </THead>
      <TBody>
        {agents.map((agent) => (
          <Tr key={agent.id} data-testid="agent-row">
            <Td primary className="max-w-xs">
              <Link href={`/agents/${agent.id}`} className="font-medium text-slate-900 hover:text-indigo-600">
                {agent.name}
              </Link>
              {agent.description && <p className="mt-0.5 truncate text-xs text-slate-500">{agent.description}</p>}
            </Td>
            <Td label="Kind">
              <Badge tone={KIND_TONE[agent.kind]}>{KIND_LABEL[agent.kind]}</Badge>
            </Td>
            <Td label="Role">{ROLE_LABEL[agent.role]}</Td>
            <Td label="Client">{agent.clientName ?? <span className="text-slate-500">—</span>}</Td>
            <Td label="Knowledge base">{KB_LABEL[agent.kbAccess]}</Td>
            <Td label="Status">
              <AgentStatusBadge disabledAt={agent.disabledAt} />
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}
