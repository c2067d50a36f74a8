"use client";

import { keepPreviousData, useInfiniteQuery, useQuery, type QueryKey } from "@tanstack/react-query";
import { useEffect } from "react";

/**
 * One page of a list as the console shows it, whatever way the server pages: the rows of the page
 * the address asks for, where they start, whether there is more, and the query's state.
 */
export interface PagedList<Row> {
  rows: Row[];
  /** how many of the list's rows the page holds, when `rows` groups them (messages shown as conversations) */
  count?: number;
  /** the page shown (1-based): the one asked for, or the last one when fewer exist */
  page: number;
  pageSize: number;
  /** how many rows the whole list holds, when the server says */
  total: number | null;
  hasNext: boolean;
  hasPrevious: boolean;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  /** a refetch or the next page is loading (the rows shown are the previous answer meanwhile) */
  isFetching: boolean;
  /** the rows shown belong to the previous filters while the new ones load */
  isPlaceholderData: boolean;
  refetch: () => unknown;
}

interface PageRequest {
  limit: number;
  /** offset paging: where the page starts */
  offset: number;
  /** cursor paging: the previous page's nextCursor (none for the first page) */
  cursor: string | undefined;
  signal: AbortSignal;
}

export interface PagedQueryOptions<R, Row> {
  /** identifies the list and its filters (the page and its size are added) */
  queryKey: QueryKey;
  page: number;
  pageSize: number;
  /**
   * `offset`: the endpoint takes `offset` and answers a total, so any page is one request.
   * `cursor`: the endpoint takes the previous page's `nextCursor` (keyset paging: stable while rows
   * are added or decided), so page N is reached through the pages before it, each fetched once and kept.
   */
  paging: "offset" | "cursor";
  fetchPage: (request: PageRequest) => Promise<R>;
  rows: (answer: R) => Row[];
  total?: (answer: R) => number | null | undefined;
  nextCursor?: (answer: R) => string | null | undefined;
  enabled?: boolean;
}

/** A server-paged list: the page the address names, fetched the way its endpoint pages. */
export function usePagedQuery<R, Row>(options: PagedQueryOptions<R, Row>): PagedList<Row> & { answer: R | undefined } {
  const { queryKey, page, pageSize, paging, fetchPage, enabled = true } = options;
  const offsetQuery = useQuery({
    queryKey: [...queryKey, { pageSize, page }],
    queryFn: ({ signal }) => fetchPage({ limit: pageSize, offset: (page - 1) * pageSize, cursor: undefined, signal }),
    enabled: enabled && paging === "offset",
    // the rows stay on screen while the next page or filter loads
    placeholderData: keepPreviousData,
  });
  const cursorQuery = useInfiniteQuery({
    queryKey: [...queryKey, { pageSize }],
    queryFn: ({ pageParam, signal }) => fetchPage({ limit: pageSize, offset: 0, cursor: pageParam, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => options.nextCursor?.(last) ?? undefined,
    enabled: enabled && paging === "cursor",
    placeholderData: keepPreviousData,
  });

  // walk to the page asked for: each page's cursor comes from the one before
  const loaded = cursorQuery.data?.pages.length ?? 0;
  const walk = paging === "cursor" && !cursorQuery.isPlaceholderData && loaded > 0 && loaded < page && cursorQuery.hasNextPage && !cursorQuery.isFetching;
  useEffect(() => {
    if (walk) void cursorQuery.fetchNextPage();
  }, [walk, cursorQuery]);

  if (paging === "offset") {
    const answer = offsetQuery.data;
    const total = answer === undefined ? null : (options.total?.(answer) ?? null);
    // past the end (rows removed since the link was made): the address's page shows nothing
    const rows = answer ? options.rows(answer) : [];
    return {
      answer,
      rows,
      page,
      pageSize,
      total,
      hasNext: total !== null ? page * pageSize < total : rows.length === pageSize,
      hasPrevious: page > 1,
      isPending: offsetQuery.isPending,
      isError: offsetQuery.isError,
      error: offsetQuery.error,
      isFetching: offsetQuery.isFetching,
      isPlaceholderData: offsetQuery.isPlaceholderData,
      refetch: offsetQuery.refetch,
    };
  }

  const pages = cursorQuery.data?.pages ?? [];
  const reachable = cursorQuery.hasNextPage || cursorQuery.isPlaceholderData ? page : Math.min(page, Math.max(1, pages.length));
  const answer = pages[reachable - 1];
  const first = pages[0];
  return {
    answer,
    rows: answer ? options.rows(answer) : [],
    page: reachable,
    pageSize,
    total: first === undefined ? null : (options.total?.(first) ?? null),
    hasNext: reachable < pages.length || (reachable === pages.length && cursorQuery.hasNextPage),
    hasPrevious: reachable > 1,
    // still walking to the page asked for counts as loading it
    isPending: cursorQuery.isPending || (!cursorQuery.isError && answer === undefined),
    isError: cursorQuery.isError,
    error: cursorQuery.error,
    isFetching: cursorQuery.isFetching,
    isPlaceholderData: cursorQuery.isPlaceholderData,
    refetch: cursorQuery.refetch,
  };
}

/**
 * A list the server answers whole (agents, users, constants: tens of rows), paged in the browser the
 * same way as the long ones, so every list in the console pages alike.
 */
export function pageLocally<Row>(
  query: { data?: Row[]; isPending: boolean; isError: boolean; error: unknown; isFetching: boolean; refetch: () => unknown },
  page: number,
  pageSize: number,
): PagedList<Row> {
  const all = query.data ?? [];
  const last = Math.max(1, Math.ceil(all.length / pageSize));
  const shown = Math.min(page, last);
  return {
    rows: all.slice((shown - 1) * pageSize, shown * pageSize),
    page: shown,
    pageSize,
    total: query.data ? all.length : null,
    hasNext: shown < last,
    hasPrevious: shown > 1,
    isPending: query.isPending,
    isError: query.isError,
    error: query.error,
    isFetching: query.isFetching,
    isPlaceholderData: false,
    refetch: query.refetch,
  };
}

/** Rows already at hand (a part of a larger answer), paged like the rest. */
export function pageRows<Row>(rows: Row[], page: number, pageSize: number): PagedList<Row> {
  return pageLocally({ data: rows, isPending: false, isError: false, error: null, isFetching: false, refetch: () => undefined }, page, pageSize);
}
