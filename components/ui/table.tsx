import type { ComponentPropsWithRef, HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "@/lib/console/cn";

/**
 * A full-width table. Put it in a Card for a border.
 *
 * On phones (below the `sm` breakpoint) a table with `cards` shows each row as a card instead of
 * scrolling sideways: every cell with a `label` is shown under that label (the column's heading), a
 * `primary` cell (the row's title) spans the card, and the column headings stay for screen readers.
 * The same rows serve both widths, so nothing is rendered twice. Without `cards` the table scrolls
 * sideways on narrow screens; the wrapper is positioned so screen-reader-only (absolute) labels in
 * far-right cells are clipped with the table instead of widening the page.
 */
export function Table({ className, cards, ...rest }: HTMLAttributes<HTMLTableElement> & { cards?: boolean }) {
  return (
    <div className="relative overflow-x-auto">
      <table className={cn("min-w-full divide-y divide-slate-200 text-sm", cards && "table-cards", className)} {...rest} />
    </div>
  );
}

export function THead({ className, ...rest }: HTMLAttributes<HTMLTableSectionElement>) {
  return <thead className={cn("bg-slate-50", className)} {...rest} />;
}

export function TBody({ className, ...rest }: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody className={cn("divide-y divide-slate-100 bg-white", className)} {...rest} />;
}

export function Tr({ className, ...rest }: ComponentPropsWithRef<"tr">) {
  return <tr className={cn("hover:bg-slate-50/70", className)} {...rest} />;
}

export function Th({ className, ...rest }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={cn("px-4 py-2.5 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-600 uppercase first:pl-5 last:pr-5", className)}
      {...rest}
    />
  );
}

export interface TdProps extends TdHTMLAttributes<HTMLTableCellElement> {
  /** the column's heading, shown above the value when the row is a card (phones) */
  label?: string;
  /** the row's title: spans the whole card on phones */
  primary?: boolean;
}

export function Td({ className, label, primary, ...rest }: TdProps) {
  return (
    <td
      data-label={label}
      data-primary={primary || undefined}
      className={cn("px-4 py-3 align-middle text-slate-700 first:pl-5 last:pr-5", className)}
      {...rest}
    />
  );
}
