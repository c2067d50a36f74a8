import type { BadgeTone } from "@/components/ui/badge";

export const STAGE_LABEL: Record<string, string> = {
  new: "New",
  engaged: "Engaged",
  qualified: "Qualified",
  booked: "Booked",
  customer: "Customer",
  lost: "Lost",
  opted_out: "Opted out",
};

export const STAGES = ["new", "engaged", "qualified", "booked", "customer", "lost"] as const;

export const SENTIMENT_TONE: Record<string, BadgeTone> = { positive: "green", neutral: "neutral", negative: "red" };
