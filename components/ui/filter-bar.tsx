"use client";

import { useId, useState, type ReactNode } from "react";
import { cn } from "@/lib/console/cn";
import { Button } from "./button";
import { Input } from "./input";
import { Spinner } from "./spinner";

/**
 * The filters above a list or table. From the `sm` breakpoint up they sit in one wrapping row, as
 * always. On phones only `primary` (usually the search box) and `trailing` stay in view; the other
 * filters fold behind a "Filters" button that says how many are set, so the list starts near the top
 * of the screen. The filters are rendered once for both widths.
 */
export function FilterBar({
  primary,
  trailing,
  active = 0,
  onClear,
  clearLabel = "Clear",
  busy,
  children,
  className,
}: {
  /** always shown, and as wide as the Filters button leaves it on phones */
  primary?: ReactNode;
  /** always shown after the filters (a spinner, a Clear button) */
  trailing?: ReactNode;
  /** how many of the folded filters are set */
  active?: number;
  /** resets the filters: a "Clear" button after them (pass it only while some are set) */
  onClear?: () => void;
  clearLabel?: string;
  /** while the list refreshes with the filters: a spinner named by this */
  busy?: string | false;
  children: ReactNode;
  /** the bar's layout from `sm` up (default: one wrapping row with a margin below) */
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className={cn(className ?? "mb-4 flex flex-wrap items-end gap-3", "max-sm:flex max-sm:flex-wrap max-sm:items-end max-sm:gap-3")}>
      {primary && <div className="min-w-0 max-sm:flex-1 max-sm:[&_input]:w-full max-sm:[&_label]:block">{primary}</div>}
      <button
        type="button"
        className="inline-flex h-9 items-center gap-1.5 rounded-md bg-white px-3 text-sm font-medium text-slate-700 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 sm:hidden"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <svg viewBox="0 0 20 20" fill="currentColor" className="size-4 text-slate-500" aria-hidden="true">
          <path d="M2.628 1.601C5.028 1.206 7.49 1 10 1s4.973.206 7.372.601a.75.75 0 0 1 .628.74v2.288a2.25 2.25 0 0 1-.659 1.59l-4.682 4.683a2.25 2.25 0 0 0-.659 1.59v3.037c0 .684-.31 1.33-.844 1.757l-1.937 1.55A.75.75 0 0 1 8 18.25v-5.757a2.25 2.25 0 0 0-.659-1.591L2.659 6.22A2.25 2.25 0 0 1 2 4.629V2.34a.75.75 0 0 1 .628-.74Z" />
        </svg>
        Filters
        {active > 0 && (
          <span className="rounded-full bg-indigo-600 px-1.5 text-xs font-semibold text-white tabular-nums" aria-label={`${active} set`}>
            {active}
          </span>
        )}
      </button>
      <div
        id={panelId}
        className={cn(
          open ? "grid w-full grid-cols-1 gap-3 min-[22rem]:grid-cols-2" : "hidden",
          "sm:contents max-sm:[&_input]:w-full max-sm:[&_label]:block max-sm:[&_select]:w-full",
        )}
      >
        {children}
      </div>
      {onClear && (
        <Button variant="ghost" size="sm" className="mb-0.5" onClick={onClear}>
          {clearLabel}
        </Button>
      )}
      {busy && <Spinner className="mb-2.5 text-slate-500" label={busy} />}
      {trailing}
    </div>
  );
}

/** The search box of a filter bar (its `primary`): labelled above like the filters beside it. */
export function FilterSearch({
  label = "Search",
  value,
  onChange,
  placeholder,
  className = "w-64",
  "aria-label": ariaLabel,
}: {
  label?: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  /** its width from `sm` up */
  className?: string;
  "aria-label"?: string;
}) {
  return (
    <label className="text-xs font-medium text-slate-600">
      {label}
      <Input className={cn("mt-1", className)} type="search" value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} aria-label={ariaLabel} />
    </label>
  );
}
