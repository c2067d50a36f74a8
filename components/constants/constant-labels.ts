import type { ConstantCategory } from "@/lib/console/types";

export const CATEGORY_LABEL: Record<ConstantCategory, string> = {
  pricing: "Pricing",
  guarantee: "Guarantees",
  compliance: "Compliance",
  escalation: "Escalation",
  booking: "Booking links",
  other: "Other",
};

export const CATEGORY_HINT: Record<ConstantCategory, string> = {
  pricing: "Prices agents quote; never negotiated by an agent.",
  guarantee: "Promises agents may make, word for word.",
  compliance: "Rules every agent must follow when contacting people.",
  escalation: "Where agents send what they can't handle.",
  booking: "Links agents share to book calls.",
  other: "Anything else agents must never change.",
};
