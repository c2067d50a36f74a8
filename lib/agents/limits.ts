import "server-only";
import type { z } from "zod";
import { admissionSettings } from "@/lib/http/admission";
import type { agentLimitsView } from "./contracts";

type AgentLimits = z.output<typeof agentLimitsView>;
/** An agent's own request limits as stored (null: the server's default). */
export type CustomLimits = AgentLimits["custom"];

/** The limits in force for an agent on this instance: its own where set, else ADMISSION_CALLER_*. */
export function limitsInForce(custom: CustomLimits): AgentLimits {
  const d = admissionSettings().caller;
  return {
    requestsPerSecond: custom.requestsPerSecond ?? d.rate,
    burst: custom.burst ?? d.burst,
    maxWaiting: custom.maxWaiting ?? d.queue,
    custom,
  };
}

/** An agent's own limits as admission control takes them (server/admission.mjs). */
export const admissionLimitsOf = (custom: CustomLimits) => ({ rate: custom.requestsPerSecond, burst: custom.burst, queue: custom.maxWaiting });
