import type { ReactNode } from "react";
import { cn } from "@/lib/console/cn";

export type BadgeTone = "neutral" | "indigo" | "blue" | "green" | "amber" | "red" | "violet";

const TONES: Record<BadgeTone, string> = {
  neutral: "bg-slate-100 text-slate-700 ring-slate-500/20",
  indigo: "bg-indigo-50 text-indigo-700 ring-indigo-600/20",
  blue: "bg-sky-50 text-sky-700 ring-sky-600/20",
  green: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  amber: "bg-amber-50 text-amber-800 ring-amber-600/25",
  red: "bg-red-50 text-red-700 ring-red-600/20",
  violet: "bg-violet-50 text-violet-700 ring-violet-600/20",
};

const isText = (c: ReactNode): c is string | number => typeof c === "string" || typeof c === "number";

/**
 * A short label on one line. Text that does not fit the space it has (a client's long name on a phone)
 * is cut with "…", and the whole of it is its tooltip.
 */
export function Badge({ tone = "neutral", className, children }: { tone?: BadgeTone; className?: string; children: ReactNode }) {
  const text = isText(children) ? String(children) : Array.isArray(children) && children.every(isText) ? children.join("") : null;
  return (
    <span
      className={cn(
        "inline-flex max-w-full items-center rounded-md px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset",
        TONES[tone],
        className,
      )}
      title={text !== null && text.length > 24 ? text : undefined}
    >
      {text !== null ? <span className="min-w-0 truncate">{text}</span> : children}
    </span>
  );
}
