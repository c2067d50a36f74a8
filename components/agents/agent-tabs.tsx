import type { ReactNode } from "react";
import type { Agent, SessionUser } from "@/lib/client/types";
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

/**
 * The tabs of an agent's page, in order. Add a tab by appending `{ id, label, render }` here; the
 * first visible tab is the default.
 */
export const agentTabs: AgentTab[] = [
  { id: "overview", label: "Overview & keys", render: ({ agent, isAdmin }) => <AgentOverviewTab agent={agent} isAdmin={isAdmin} /> },
];
