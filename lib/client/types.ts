/**
 * The shapes `/api/v1` answers with, as the browser sees them (dates arrive as ISO strings).
 * Mirrors lib/<domain>/queries.ts rows; keep them in step when a response changes.
 */

export type HqRole = "admin" | "curator" | "viewer";
export type AgentKind = "internal" | "field";
export type AgentRole = "manager" | "orchestrator" | "specialist" | "isolated";
export type KbAccess = "read" | "write";

export interface SessionUser {
  id: string;
  name: string;
  email: string | null;
  role: HqRole;
}

export interface Agent {
  id: string;
  name: string;
  kind: AgentKind;
  role: AgentRole;
  kbAccess: KbAccess;
  clientId: string | null;
  clientName: string | null;
  description: string;
  disabledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface AgentKey {
  id: string;
  agentId: string;
  label: string;
  prefix: string;
  createdByName: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface IssuedKey {
  id: string;
  key: string;
  prefix: string;
}

export interface Client {
  id: string;
  name: string;
  slug: string;
  triggerTerms: string[];
  createdAt: string;
  updatedAt: string;
}

export const CONSTANT_CATEGORIES = ["pricing", "guarantee", "compliance", "escalation", "booking", "other"] as const;
export type ConstantCategory = (typeof CONSTANT_CATEGORIES)[number];

export interface LockedConstant {
  id: string;
  key: string;
  label: string;
  value: string;
  category: ConstantCategory;
  description: string;
  updatedByName: string;
  updatedAt: string;
}

export interface AuditEntry {
  id: string;
  occurredAt: string;
  actorType: "agent" | "hq_user" | "admin_key" | "system" | string;
  actorId: string | null;
  actorName: string;
  action: string;
  targetType: string;
  targetId: string | null;
  clientId: string | null;
  details: Record<string, unknown>;
  /** resolved by the API: the target's current name, and the agent/client the entry concerns */
  targetName?: string | null;
  agentId?: string | null;
  agentName?: string | null;
  clientName?: string | null;
}

export interface HqUser {
  id: string;
  email: string;
  name: string;
  role: HqRole;
  invitePending: boolean;
  disabledAt: string | null;
  lastLoginAt: string | null;
  createdAt: string;
}

export interface InviteResult {
  user: HqUser;
  inviteToken: string;
  invitePath: string;
  expiresInHours: number;
}
