import type { ReactNode } from "react";
import { cn } from "@/lib/console/cn";

/** Label/value pairs in a two-column grid, e.g. an object's details. */
export function DescriptionList({
  items,
  className,
}: {
  items: readonly { label: ReactNode; value: ReactNode; wide?: boolean }[];
  className?: string;
}) {
  return (
    <dl className={cn("grid grid-cols-1 gap-x-6 gap-y-4 sm:grid-cols-2", className)}>
      {items.map((item, i) => (
        <div key={i} className={cn("min-w-0", item.wide && "sm:col-span-2")}>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{item.label}</dt>
          {/* a word longer than the column (a pasted link or token) breaks instead of widening the page */}
          <dd className="mt-1 text-sm wrap-anywhere text-slate-900">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
