/** The lifecycle endpoints' shapes as the browser receives them (dates as ISO strings): derived from their contracts. */
import type { z } from "zod";
import type { agentReportView, escalationEntryDraftView, escalationListView, escalationView, outcomesOverviewView } from "@/lib/lifecycle/contracts";
import { escalationSeverity, type resolveEscalationBody } from "@/lib/lifecycle/schemas";

export const ESCALATION_SEVERITIES = escalationSeverity.options;
export type EscalationSeverity = z.infer<typeof escalationSeverity>;

export type Escalation = z.input<typeof escalationView>;
export type EscalationList = z.input<typeof escalationListView>;
/** the knowledge entry resolving would compose, and the personal data left out of it */
export type EscalationEntryDraft = z.input<typeof escalationEntryDraftView>;
/** what the resolve dialog submits: the escalation's id and the resolve body */
export type ResolveEscalationInput = { id: string } & z.input<typeof resolveEscalationBody>;

export type AgentReport = z.input<typeof agentReportView>;
export type OutcomesOverview = z.input<typeof outcomesOverviewView>;
