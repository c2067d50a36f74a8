import { cn } from "@/lib/console/cn";
import { Spinner } from "./spinner";

/**
 * A placeholder while a query loads: skeleton rows (default, for tables and lists) or a spinner.
 * The label is read out by screen readers.
 */
export function LoadingState({
  label = "Loading…",
  variant = "rows",
  rows = 4,
  className,
}: {
  label?: string;
  variant?: "rows" | "spinner";
  rows?: number;
  className?: string;
}) {
  if (variant === "spinner") {
    return (
      <div role="status" className={cn("flex items-center justify-center gap-2 py-10 text-sm text-slate-500", className)}>
        <Spinner />
        <span>{label}</span>
      </div>
    );
  }
  return (
    <div role="status" aria-label={label} className={cn("space-y-3 px-5 py-5", className)}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex animate-pulse items-center gap-4">
          <div className="h-3.5 w-1/4 rounded bg-slate-200" />
          <div className="h-3.5 flex-1 rounded bg-slate-100" />
          <div className="h-3.5 w-16 rounded bg-slate-100" />
        </div>
      ))}
      <span className="sr-only">{label}</span>
    </div>
  );
}
