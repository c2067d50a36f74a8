/**
 * The shapes `/api/v1` answers with, as the browser receives them (dates as ISO strings): derived from
 * the endpoints' contracts, never written by hand.
 */
import type { z } from "zod";
import type { agentKeyView, agentListItemView, agentView, issuedKeyView } from "@/lib/agents/contracts";
import type { agentKind, agentRole, kbAccess } from "@/lib/agents/schemas";
import type { auditEntryView } from "@/lib/audit/contracts";
import type { hqUserView, inviteResultView, sessionUserView } from "@/lib/auth/contracts";
import type { hqRole } from "@/lib/auth/schemas";
import type { clientView } from "@/lib/clients/contracts";
import type { lockedConstantView } from "@/lib/locked-constants/contracts";
import { constantCategory } from "@/lib/locked-constants/schemas";
import type { missionView } from "@/lib/missions/contracts";

export type HqRole = z.infer<typeof hqRole>;
export type AgentKind = z.infer<typeof agentKind>;
export type AgentRole = z.infer<typeof agentRole>;
export type KbAccess = z.infer<typeof kbAccess>;

/** The signed-in user as the console's layout hands it to the shell. */
export type SessionUser = Omit<z.input<typeof sessionUserView>, "type" | "userId"> & { id: string };

export type Agent = z.input<typeof agentView>;
export type AgentListItem = z.input<typeof agentListItemView>;
export type AgentKey = z.input<typeof agentKeyView>;
export type IssuedKey = z.input<typeof issuedKeyView>;
export type Client = z.input<typeof clientView>;
export type Mission = z.input<typeof missionView>;

export const CONSTANT_CATEGORIES = constantCategory.options;
export type ConstantCategory = z.infer<typeof constantCategory>;
export type LockedConstant = z.input<typeof lockedConstantView>;

export type AuditEntry = z.input<typeof auditEntryView>;
export type HqUser = z.input<typeof hqUserView>;
export type InviteResult = z.input<typeof inviteResultView>;
