export type AgentKind = "internal" | "field";
export type AgentRole = "manager" | "orchestrator" | "specialist" | "isolated";
export type HqRole = "admin" | "curator" | "viewer";

export interface AgentCaller {
  type: "agent";
  agentId: string;
  name: string;
  kind: AgentKind;
  role: AgentRole;
  clientId: string | null;
  kbAccess: "read" | "write";
}

export interface HqCaller {
  type: "hq";
  /** null for the ADMIN_API_KEY automation key */
  userId: string | null;
  name: string;
  email: string | null;
  role: HqRole;
}

export type Caller = AgentCaller | HqCaller;

export const isHq = (c: Caller): c is HqCaller => c.type === "hq";
export const isAgent = (c: Caller): c is AgentCaller => c.type === "agent";
