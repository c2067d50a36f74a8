import { Badge } from "@/components/ui/badge";
import type { KnowledgeCategory } from "@/lib/console/knowledge-types";
import { CATEGORY_LABEL, CATEGORY_TONE } from "./labels";

export function CategoryBadge({ category }: { category: KnowledgeCategory }) {
  return <Badge tone={CATEGORY_TONE[category] ?? "neutral"}>{CATEGORY_LABEL[category] ?? category}</Badge>;
}

export function TagList({ tags, max = 4 }: { tags: string[]; max?: number }) {
  if (!tags.length) return <span className="text-xs text-slate-500">—</span>;
  const shown = tags.slice(0, max);
  return (
    <span className="flex flex-wrap gap-1">
      {shown.map((t) => (
        <span key={t} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">
          #{t}
        </span>
      ))}
      {tags.length > max && <span className="text-xs text-slate-500">+{tags.length - max}</span>}
    </span>
  );
}
