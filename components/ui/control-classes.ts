import { cn } from "@/lib/console/cn";

/** Shared look of text inputs, selects and textareas. */
export function controlClasses(invalid: boolean, className?: string) {
  // full width unless the caller sets a width: with both classes, the stylesheet's order (not the
  // caller) would decide, and a search box meant to be w-80 shrank until its placeholder was cut off
  const sized = /(^|\s)w-/.test(className ?? "");
  return cn(
    "block rounded-md border bg-white px-3 text-sm text-slate-900 shadow-xs placeholder:text-slate-500",
    !sized && "w-full",
    "focus:outline-2 focus:-outline-offset-1 disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500",
    invalid ? "border-red-400 focus:outline-red-500" : "border-slate-300 focus:outline-indigo-600",
    className,
  );
}
