"use client";

import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { Fragment, useLayoutEffect, useRef, useState, type HTMLAttributes, type ReactNode } from "react";
import { errorMessage } from "@/lib/console/api";
import { cn } from "@/lib/console/cn";
import type { PagedList } from "@/lib/console/hooks/paged-list";
import { Button } from "./button";
import { EmptyState } from "./empty-state";
import { ErrorState } from "./error-state";
import { LoadingState } from "./loading-state";
import { Table, TBody, Td, Th, THead, Tr } from "./table";

export interface Column<Row> {
  id: string;
  /** the column's heading; also the cell's label when the row is a card on a phone */
  header: ReactNode;
  /** the label on phones when the heading is not plain text (or should read differently) */
  label?: string;
  cell: (row: Row) => ReactNode;
  /** the row's title: spans the card on phones */
  primary?: boolean;
  className?: string;
  headerClassName?: string;
  /** a tooltip on the heading */
  title?: string;
}

/** Pages longer than this are windowed: only the rows near the screen are in the document. */
const WINDOW_FROM = 60;

interface DataListBase<Row> {
  list: PagedList<Row>;
  /** moves to another page (the list's page lives in the address) */
  onPage: (page: number) => void;
  /** a row's key (default: its `id`) */
  rowKey?: (row: Row) => string;
  /** what the rows are, for the pager and screen readers: ["entry", "entries"] */
  noun: readonly [string, string];
  /** shown over the rows: a caption such as the count and the order */
  caption?: ReactNode;
  /** shown instead of the rows when the list is empty */
  empty: ReactNode;
  /** read out while the rows load (default “Loading <rows>…”) */
  loadingLabel?: string;
  /** window the rows of a long page (default: pages over 60 rows are windowed) */
  windowed?: boolean;
  /** the row the keyboard is on: kept on screen when windowed */
  activeIndex?: number;
  /** an estimate of a row's height in px, for windowing (measured once shown) */
  estimateRowHeight?: number;
  className?: string;
}

export interface DataTableProps<Row> extends DataListBase<Row> {
  columns: readonly Column<Row>[];
  /** attributes of a row (a test id, a selected state) */
  rowProps?: (row: Row, index: number) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, unknown>;
  /** a row's expanded details, shown under it across the table; null when closed */
  expanded?: (row: Row) => ReactNode | null;
  /**
   * A row drawn by its own component instead of from `columns` (the headings still come from them):
   * it spreads `place` on its first `<tr>`, which windowing measures.
   */
  renderRow?: (row: Row, place: RowPlace) => ReactNode;
  /** the table's name for screen readers (default: the rows' noun) */
  "aria-label"?: string;
}

/** Where a row sits in a (windowed) table: spread on the row's `<tr>`. */
export interface RowPlace {
  ref?: (el: Element | null) => void;
  "data-index": number;
  "aria-rowindex"?: number;
}

/**
 * Every list in the console: one page of rows at a time (the page in the address), a table that
 * becomes one card per row on phones, Previous/Next under it with where the page starts and how
 * many there are, and loading, empty and error states. Long pages are windowed
 * (`@tanstack/react-virtual`): the rows off screen are left out of the document and the table keeps
 * its height, so a page of hundreds opens as fast as a page of ten.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { list, columns, rowProps, expanded } = props;
  const rowKey = props.rowKey ?? idOf;
  return (
    <ListFrame {...props}>
      {(window) => (
        <Table cards aria-label={props["aria-label"] ?? props.noun[1]} aria-busy={list.isFetching || undefined} aria-rowcount={window ? list.rows.length + 1 : undefined}>
          <THead>
            <tr aria-rowindex={window ? 1 : undefined}>
              {columns.map((c) => (
                <Th key={c.id} className={c.headerClassName} title={c.title}>
                  {c.header}
                </Th>
              ))}
            </tr>
          </THead>
          <TBody>
            {window?.before ? <SpacerRow height={window.before} columns={columns.length} /> : null}
            {(window ? window.indexes : list.rows.map((_, i) => i)).map((index) => {
              const row = list.rows[index]!;
              if (props.renderRow) {
                return (
                  <Fragment key={rowKey(row)}>
                    {props.renderRow(row, { ref: window?.measure, "data-index": index, "aria-rowindex": window ? index + 2 : undefined })}
                  </Fragment>
                );
              }
              const details = expanded?.(row);
              return (
                <Fragment key={rowKey(row)}>
                  <Tr
                    {...rowProps?.(row, index)}
                    data-index={index}
                    ref={window?.measure}
                    aria-rowindex={window ? index + 2 : undefined}
                  >
                    {columns.map((c) => (
                      <Td key={c.id} primary={c.primary} label={c.label ?? (typeof c.header === "string" ? c.header : undefined)} className={c.className}>
                        {c.cell(row)}
                      </Td>
                    ))}
                  </Tr>
                  {details ? (
                    <tr className="bg-slate-50/60">
                      <td colSpan={columns.length} className="px-5 py-4">
                        {details}
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
            {window?.after ? <SpacerRow height={window.after} columns={columns.length} /> : null}
          </TBody>
        </Table>
      )}
    </ListFrame>
  );
}

export interface DataItemsProps<Row> extends DataListBase<Row> {
  /** one item; it gets its key and position from the list */
  renderItem: (row: Row, index: number) => ReactNode;
  /** the element around the items (default: a list with dividers) */
  itemsClassName?: string;
  "aria-label": string;
}

/** The same list as `DataTable` for rows that are not table rows (cards, transcripts): one item each. */
export function DataItems<Row>(props: DataItemsProps<Row>) {
  const { list, renderItem } = props;
  const rowKey = props.rowKey ?? idOf;
  return (
    <ListFrame {...props}>
      {(window) => (
        <ul aria-label={props["aria-label"]} aria-busy={list.isFetching || undefined} className={props.itemsClassName ?? "divide-y divide-slate-100"}>
          {window?.before ? <li aria-hidden="true" style={{ height: window.before }} /> : null}
          {(window ? window.indexes : list.rows.map((_, i) => i)).map((index) => {
            const row = list.rows[index]!;
            return (
              <li key={rowKey(row)} data-index={index} ref={window?.measure}>
                {renderItem(row, index)}
              </li>
            );
          })}
          {window?.after ? <li aria-hidden="true" style={{ height: window.after }} /> : null}
        </ul>
      )}
    </ListFrame>
  );
}

const idOf = (row: unknown) => (row as { id: string }).id;

/** The column of a row's buttons: no heading but for screen readers, kept to the right. */
export function actionsColumn<Row>(cell: (row: Row) => ReactNode): Column<Row> {
  return { id: "actions", header: <span className="sr-only">Actions</span>, headerClassName: "text-right", className: "text-right whitespace-nowrap", cell };
}

function SpacerRow({ height, columns }: { height: number; columns: number }) {
  return (
    <tr data-spacer aria-hidden="true" style={{ height }}>
      <td colSpan={columns} className="p-0" />
    </tr>
  );
}

interface ListWindow {
  indexes: number[];
  before: number;
  after: number;
  measure: (el: Element | null) => void;
}

function ListFrame<Row>({
  list,
  onPage,
  noun,
  caption,
  empty,
  loadingLabel = `Loading ${noun[1]}…`,
  windowed,
  activeIndex,
  estimateRowHeight = 52,
  className,
  children,
}: DataListBase<Row> & { children: (window: ListWindow | null) => ReactNode }) {
  const top = useRef<HTMLDivElement>(null);
  const useWindow = windowed ?? list.rows.length > WINDOW_FROM;
  // the row the keyboard moved to stays on screen (a windowed list scrolls to it itself); not the first one on opening
  const shownActive = useRef(activeIndex);
  useLayoutEffect(() => {
    if (shownActive.current === activeIndex) return;
    shownActive.current = activeIndex;
    if (useWindow || activeIndex === undefined || activeIndex < 0) return;
    top.current?.querySelector(`[data-index="${activeIndex}"]`)?.scrollIntoView({ block: "nearest" });
  }, [activeIndex, useWindow]);

  function go(page: number) {
    onPage(page);
    // the new page starts at the top of the list, not where the pager was
    const el = top.current;
    if (el && el.getBoundingClientRect().top < 0) el.scrollIntoView({ block: "start" });
  }

  let body: ReactNode;
  if (list.isPending) body = <LoadingState label={loadingLabel} rows={6} />;
  else if (list.isError && list.rows.length === 0) body = <ErrorState error={list.error} onRetry={() => list.refetch()} retrying={list.isFetching} />;
  else if (list.rows.length === 0 && list.page > 1) {
    body = (
      <EmptyState
        title={`Nothing on page ${list.page}`}
        description={`The list is shorter than it was when this address was made.`}
        action={
          <Button variant="secondary" size="sm" onClick={() => go(1)}>
            Go to the first page
          </Button>
        }
      />
    );
  } else if (list.rows.length === 0) body = empty;
  else {
    body = (
      <>
        {caption}
        {useWindow ? (
          <Windowed count={list.rows.length} estimate={estimateRowHeight} activeIndex={activeIndex} anchor={top}>
            {children}
          </Windowed>
        ) : (
          children(null)
        )}
        <Pager list={list} noun={noun} onPage={go} />
      </>
    );
  }
  return (
    <div ref={top} className={cn("scroll-mt-20", className)} data-list-page={list.page}>
      {body}
    </div>
  );
}

function Windowed({
  count,
  estimate,
  activeIndex,
  anchor,
  children,
}: {
  count: number;
  estimate: number;
  activeIndex?: number;
  anchor: React.RefObject<HTMLDivElement | null>;
  children: (window: ListWindow) => ReactNode;
}) {
  // where the list starts on the page: the window is measured against the document's scroll
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const el = anchor.current;
    if (!el) return;
    const measure = () => setMargin(el.getBoundingClientRect().top + window.scrollY);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [anchor]);
  // the sticky header and a bulk toolbar cover the top of the window: a row scrolled to lands below them
  const virtualizer = useWindowVirtualizer({ count, estimateSize: () => estimate, overscan: 8, scrollMargin: margin, scrollPaddingStart: 128 });
  const shownActive = useRef(activeIndex);
  useLayoutEffect(() => {
    if (shownActive.current === activeIndex) return;
    shownActive.current = activeIndex;
    if (activeIndex !== undefined && activeIndex >= 0 && activeIndex < count) virtualizer.scrollToIndex(activeIndex, { align: "auto" });
  }, [activeIndex, count, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const before = items.length ? items[0]!.start - margin : 0;
  const after = items.length ? virtualizer.getTotalSize() - (items[items.length - 1]!.end - margin) : 0;
  return children({ indexes: items.map((i) => i.index), before: Math.max(0, before), after: Math.max(0, after), measure: virtualizer.measureElement });
}

/** Where the page starts and ends and how many there are; Previous/Next, as a navigation landmark, only when there is more than one page. */
export function Pager<Row>({ list, noun, onPage }: { list: PagedList<Row>; noun: readonly [string, string]; onPage: (page: number) => void }) {
  const from = (list.page - 1) * list.pageSize + 1;
  const to = from + (list.count ?? list.rows.length) - 1;
  const count = list.total ?? to;
  const whole = !list.hasNext && !list.hasPrevious;
  // a list that fits one page has nothing to navigate: its count is not a navigation landmark (several
  // such lists on a page would otherwise be landmarks of one name)
  const Frame = whole ? "div" : "nav";
  return (
    <Frame
      aria-label={whole ? undefined : `Pages of ${noun[1]}`}
      className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 px-5 py-3 text-sm text-slate-500"
    >
      <span aria-live="polite" data-testid="pager-range">
        {whole
          ? `${count.toLocaleString("en-US")} ${count === 1 ? noun[0] : noun[1]}`
          : `${from.toLocaleString("en-US")}–${to.toLocaleString("en-US")}${list.total !== null ? ` of ${list.total.toLocaleString("en-US")}` : ""} ${noun[1]}`}
      </span>
      {list.isError && (
        <span role="alert" className="text-red-600">
          Couldn&apos;t refresh: {errorMessage(list.error)}
        </span>
      )}
      {!whole && (
        <span className="flex items-center gap-2">
          <Button size="sm" variant="secondary" disabled={!list.hasPrevious} onClick={() => onPage(list.page - 1)}>
            Previous
          </Button>
          <span className="tabular-nums">Page {list.page}{list.total !== null ? ` of ${Math.max(1, Math.ceil(list.total / list.pageSize))}` : ""}</span>
          <Button size="sm" variant="secondary" disabled={!list.hasNext} loading={list.isFetching && list.isPlaceholderData} onClick={() => onPage(list.page + 1)}>
            Next
          </Button>
        </span>
      )}
    </Frame>
  );
}
