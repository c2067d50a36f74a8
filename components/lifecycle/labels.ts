import type { BadgeTone } from "@/components/ui/badge";
import type { EscalationSeverity } from "@/lib/console/lifecycle-types";

export const SEVERITY_TONE: Record<EscalationSeverity, BadgeTone> = {
  low: "neutral",
  medium: "indigo",
  high: "amber",
  critical: "red",
};

export const rate = (v: number | null) => (v === null ? "—" : `${Math.round(v * 100)}%`);
