"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { DescriptionList } from "@/components/ui/description-list";
import { useUndoable } from "@/components/ui/toast";
import { formatDateTime } from "@/lib/console/format";
import { useSetAgentDisabled } from "@/lib/console/hooks/agents";
import type { Agent } from "@/lib/console/types";
import { kbAccessLabel, KIND_LABEL, ROLE_HINT, ROLE_LABEL } from "./agent-labels";
import { AgentStatusBadge } from "./agent-status-badge";
import { EditAgentDialog } from "./edit-agent-dialog";

export function AgentDetailsCard({ agent, isAdmin }: { agent: Agent; isAdmin: boolean }) {
  const [editing, setEditing] = useState(false);
  const disabled = Boolean(agent.disabledAt);
  const setDisabled = useSetAgentDisabled(agent.id);
  const undoable = useUndoable();

  /** Disabling stops the agent's keys until it is enabled again: done at once, with Undo in the toast. */
  function toggleDisabled() {
    void undoable({
      act: () => setDisabled.mutateAsync(!disabled),
      done: () => (disabled ? `Enabled ${agent.name}: its active keys work again.` : `Disabled ${agent.name}: its keys stop working until it is enabled. Its memory is kept.`),
      undo: () => setDisabled.mutateAsync(disabled),
      undone: disabled ? `${agent.name} is disabled again.` : `${agent.name} is enabled again.`,
      failed: `Couldn't ${disabled ? "enable" : "disable"} ${agent.name}`,
    });
  }

  return (
    <Card>
      <CardHeader
        title="Details"
        actions={
          isAdmin && (
            <>
              <Button variant="secondary" onClick={toggleDisabled} loading={setDisabled.isPending}>
                {disabled ? "Enable agent" : "Disable agent"}
              </Button>
              <Button variant="secondary" onClick={() => setEditing(true)}>
                Edit
              </Button>
            </>
          )
        }
      />
      <CardBody>
        <DescriptionList
          items={[
            { label: "Kind", value: `${KIND_LABEL[agent.kind]}${agent.clientName ? ` — deployed to ${agent.clientName}` : ""}` },
            { label: "Status", value: <AgentStatusBadge disabledAt={agent.disabledAt} /> },
            {
              label: "Role",
              value: (
                <>
                  {ROLE_LABEL[agent.role]}
                  <span className="mt-0.5 block text-xs text-slate-500">{ROLE_HINT[agent.role]}</span>
                </>
              ),
            },
            { label: "Knowledge base", value: kbAccessLabel(agent) },
            {
              label: "Description",
              value: agent.description || <span className="text-slate-500">No description</span>,
              wide: true,
            },
            {
              label: "Agent ID",
              value: (
                <span className="flex items-center gap-2">
                  <code className="truncate font-mono text-xs text-slate-700">{agent.id}</code>
                  <CopyButton value={agent.id} variant="ghost" label="Copy" />
                </span>
              ),
            },
            { label: "Created", value: formatDateTime(agent.createdAt) },
            ...(agent.disabledAt ? [{ label: "Disabled", value: formatDateTime(agent.disabledAt) }] : []),
          ]}
        />
      </CardBody>
      {isAdmin && (
        <>
          <EditAgentDialog open={editing} onClose={() => setEditing(false)} agent={agent} />
        </>
      )}
    </Card>
  );
}
