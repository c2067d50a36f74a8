import type { BadgeTone } from "@/components/ui/badge";
import type { MemoryStatus, MemoryTier } from "@/lib/console/memory-types";

export const TIER_LABEL: Record<MemoryTier, string> = { core: "Core", working: "Working", learning: "Learning" };
export const TIER_TONE: Record<MemoryTier, BadgeTone> = { core: "indigo", working: "blue", learning: "violet" };
export const STATUS_TONE: Record<MemoryStatus, BadgeTone> = { active: "green", resolved: "neutral", archived: "amber" };

export const percent = (x: number) => `${Math.round(x * 100)}%`;
