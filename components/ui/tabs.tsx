"use client";

import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { cn } from "@/lib/console/cn";

export interface TabItem {
  id: string;
  label: ReactNode;
  /** rendered only while the tab is active */
  content: ReactNode;
  /** a count or badge after the label */
  badge?: ReactNode;
}

/**
 * Accessible tabs (arrow keys move between tabs). Controlled with `value`/`onValueChange`, or
 * uncontrolled with `defaultValue`.
 */
export function Tabs({
  items,
  value,
  defaultValue,
  onValueChange,
  label,
  className,
}: {
  items: readonly TabItem[];
  value?: string;
  defaultValue?: string;
  onValueChange?: (id: string) => void;
  /** accessible name of the tab list */
  label?: string;
  className?: string;
}) {
  const [internal, setInternal] = useState(defaultValue ?? items[0]?.id);
  const requested = value ?? internal;
  const active = items.find((t) => t.id === requested) ?? items[0];
  const baseId = useId();
  const listRef = useRef<HTMLDivElement>(null);

  function select(id: string) {
    if (value === undefined) setInternal(id);
    onValueChange?.(id);
  }

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const index = items.findIndex((t) => t.id === active?.id);
    let next = -1;
    if (e.key === "ArrowRight") next = (index + 1) % items.length;
    else if (e.key === "ArrowLeft") next = (index - 1 + items.length) % items.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = items.length - 1;
    if (next < 0) return;
    e.preventDefault();
    const target = items[next]!;
    select(target.id);
    listRef.current?.querySelector<HTMLButtonElement>(`[data-tab-id="${CSS.escape(target.id)}"]`)?.focus();
  }

  // more tabs than a phone's width holds collapse into a menu there; wider screens keep the strip
  const collapsible = items.length > 3;

  return (
    <div className={className}>
      {collapsible && (
        <label className="block sm:hidden">
          <span className="sr-only">{label ?? "Section"}</span>
          <select
            value={active?.id}
            onChange={(e) => select(e.target.value)}
            className="block h-10 w-full rounded-md border-0 bg-white px-3 text-sm font-medium text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600"
          >
            {items.map((tab) => (
              <option key={tab.id} value={tab.id}>
                {typeof tab.label === "string" ? tab.label : tab.id}
              </option>
            ))}
          </select>
        </label>
      )}
      <div
        ref={listRef}
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className={cn("gap-6 overflow-x-auto border-b border-slate-200", collapsible ? "hidden sm:flex" : "flex")}
      >
        {items.map((tab) => {
          const selected = tab.id === active?.id;
          return (
            <button
              key={tab.id}
              type="button"
              role="tab"
              data-tab-id={tab.id}
              id={`${baseId}-tab-${tab.id}`}
              aria-selected={selected}
              aria-controls={`${baseId}-panel-${tab.id}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => select(tab.id)}
              className={cn(
                "-mb-px flex items-center gap-2 border-b-2 px-0.5 pt-1 pb-3 text-sm font-medium whitespace-nowrap transition-colors",
                "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
                selected ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-500 hover:border-slate-300 hover:text-slate-700",
              )}
            >
              {tab.label}
              {tab.badge}
            </button>
          );
        })}
      </div>
      {active && (
        <div role="tabpanel" id={`${baseId}-panel-${active.id}`} aria-labelledby={`${baseId}-tab-${active.id}`} className="pt-6">
          {active.content}
        </div>
      )}
    </div>
  );
}
