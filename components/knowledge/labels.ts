import type { BadgeTone } from "@/components/ui/badge";
import { KNOWLEDGE_CATEGORIES, type KnowledgeCategory } from "@/lib/console/knowledge-types";

export const CATEGORY_LABEL: Record<KnowledgeCategory, string> = {
  procedure: "Procedure",
  "best-practice": "Best practice",
  template: "Template",
  "skill-doc": "Skill doc",
  escalation: "Escalation",
  "tool-guide": "Tool guide",
};

export const CATEGORY_TONE: Record<KnowledgeCategory, BadgeTone> = {
  procedure: "indigo",
  "best-practice": "green",
  template: "violet",
  "skill-doc": "blue",
  escalation: "red",
  "tool-guide": "amber",
};

/** A category as people read it ("Best practice"); an unknown slug is spelled out the same way. */
export function categoryLabel(category: string): string {
  const known = CATEGORY_LABEL[category as KnowledgeCategory];
  if (known) return known;
  const words = category.replace(/[-_]/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const CATEGORY_OPTIONS = KNOWLEDGE_CATEGORIES.map((c) => ({ value: c, label: CATEGORY_LABEL[c] }));

/** "a, b , c" → ["a", "b", "c"]; the API normalises case and spaces */
export const parseTags = (text: string) =>
  text
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
