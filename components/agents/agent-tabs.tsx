import type { ReactNode } from "react";
import type { Agent, SessionUser } from "@/lib/console/types";
import { DailyNotesTab } from "@/components/memories/daily-notes-tab";
import { DecisionsTab } from "@/components/memories/decisions-tab";
import { DocumentEditor } from "@/components/memories/document-editor";
import { InteractionsTab } from "@/components/memories/interactions-tab";
import { MemoriesTab } from "@/components/memories/memories-tab";
import { ReportsTab } from "@/components/lifecycle/reports-tab";
import { WORKING_MAX_CHARS } from "@/lib/documents/limits";
import { AgentOverviewTab } from "./agent-overview-tab";

export interface AgentTabContext {
  agent: Agent;
  user: SessionUser;
  isAdmin: boolean;
}

export interface AgentTab {
  /** used in the URL: /agents/<id>?tab=<id> */
  id: string;
  label: string;
  render: (ctx: AgentTabContext) => ReactNode;
  /** hide the tab for some agents or users (e.g. `({ agent }) => agent.role !== "isolated"`) */
  visible?: (ctx: AgentTabContext) => boolean;
}

const hasMemory = ({ agent }: AgentTabContext) => agent.role !== "isolated";

/**
 * The tabs of an agent's page, in order. Add a tab by appending `{ id, label, render }` here; the
 * first visible tab is the default.
 */
export const agentTabs: AgentTab[] = [
  { id: "overview", label: "Overview & keys", render: ({ agent, isAdmin }) => <AgentOverviewTab agent={agent} isAdmin={isAdmin} /> },
  // agent memory: isolated agents (code, deploy, migrations) keep no memory
  {
    id: "soul",
    label: "SOUL",
    visible: hasMemory,
    render: ({ agent, isAdmin }) => (
      <DocumentEditor
        key={`${agent.id}-soul`}
        agentId={agent.id}
        type="soul"
        title="SOUL"
        description="Identity, territory, learned preferences and communication style. Rarely changes."
        canEdit={isAdmin}
        placeholder={`# ${agent.name.toUpperCase()} — Role\n\n## Identity\n\n## Territory\n\n## Learned preferences\n\n## Communication`}
      />
    ),
  },
  {
    id: "scratchpad",
    label: "Scratchpad",
    visible: hasMemory,
    render: ({ agent, isAdmin }) => (
      <DocumentEditor
        key={`${agent.id}-working`}
        agentId={agent.id}
        type="working"
        title="Scratchpad"
        description="The agent's working memory: current task, status, recent decisions, next steps. Loaded into every conversation."
        canEdit={isAdmin}
        maxChars={WORKING_MAX_CHARS}
        placeholder={"## Current task\n\n## Status\n\n## Next steps\n1. "}
      />
    ),
  },
  { id: "daily", label: "Daily notes", visible: hasMemory, render: ({ agent, isAdmin }) => <DailyNotesTab key={agent.id} agentId={agent.id} canEdit={isAdmin} /> },
  { id: "memories", label: "Memories", visible: hasMemory, render: ({ agent, isAdmin }) => <MemoriesTab key={agent.id} agent={agent} isAdmin={isAdmin} /> },
  { id: "decisions", label: "Decisions", visible: hasMemory, render: ({ agent, isAdmin }) => <DecisionsTab agent={agent} isAdmin={isAdmin} /> },
  { id: "interactions", label: "Interactions", visible: hasMemory, render: ({ agent }) => <InteractionsTab key={agent.id} agent={agent} /> },
  { id: "reports", label: "Reports", visible: hasMemory, render: ({ agent }) => <ReportsTab key={agent.id} agent={agent} /> },
];
