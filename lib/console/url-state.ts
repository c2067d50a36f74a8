"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";

export type UrlStateChanges<K extends string> = Partial<Record<K, string | number | null | undefined>>;

/**
 * A page's view — its filters, its tab, the page of a list — kept in the address, so a view can be
 * linked to, survives a reload and is where Back returns to. `defaults` names every key the page
 * owns and its value when the address does not set it; a key set to its default leaves the address.
 *
 * The values live in state and are mirrored into the address with `history.replaceState` (or
 * `pushState` with `{ push: true }`, for moves worth a Back: another page of a list, another tab),
 * which Next.js keeps in step with `useSearchParams`. Successive changes in one event build on each
 * other, never on an address Next has not caught up with yet; the address changing under the page
 * (Back, Forward, a link to the same page with other parameters) is followed. Parameters the page
 * does not own are kept as they are.
 */
export function useUrlState<K extends string>(defaults: Record<K, string>) {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const [params, setParams] = useState(() => new URLSearchParams(search));
  // the address as this hook last wrote or adopted it, and the newest params for changes made before a render
  const known = useRef(search);
  const latest = useRef(params);
  latest.current = params;
  const defaultsRef = useRef(defaults);
  defaultsRef.current = defaults;

  useEffect(() => {
    if (search === known.current) return;
    known.current = search;
    setParams(new URLSearchParams(search));
  }, [search]);

  const set = useCallback(
    (changes: UrlStateChanges<K>, { push = false }: { push?: boolean } = {}) => {
      const next = new URLSearchParams(latest.current);
      for (const [key, raw] of Object.entries(changes) as [K, string | number | null | undefined][]) {
        const value = raw === null || raw === undefined ? "" : String(raw);
        if (value === "" || value === defaultsRef.current[key]) next.delete(key);
        else next.set(key, value);
      }
      const qs = next.toString();
      if (qs === latest.current.toString()) return;
      latest.current = next;
      known.current = qs;
      setParams(next);
      const url = qs ? `${pathname}?${qs}` : pathname;
      if (push) window.history.pushState(window.history.state, "", url);
      else window.history.replaceState(window.history.state, "", url);
    },
    [pathname],
  );

  const values = useMemo(() => {
    const out = {} as Record<K, string>;
    for (const key of Object.keys(defaultsRef.current) as K[]) out[key] = params.get(key) ?? defaultsRef.current[key];
    return out;
  }, [params]);

  return [values, set] as const;
}

/** One of `allowed`, or `fallback` when the address holds anything else (a stale or hand-edited link). */
export function oneOf<T extends string>(value: string, allowed: readonly T[], fallback: T): T {
  return (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** A page number from the address: a whole number from 1, else 1. */
export function pageNumber(value: string): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/**
 * The address state of a list: its filters (`defaults`) and the page shown (`page`, or `pageParam`
 * when a page holds several lists). Changing a filter goes back to the first page and replaces the
 * address (`{ push: true }` for a move worth a Back, such as another tab); moving to another page
 * pushes it, so Back returns to the page before.
 */
export function useListUrl<K extends string>(defaults: Record<K, string>, pageParam = "page") {
  const [values, set] = useUrlState<string>({ ...defaults, [pageParam]: "1" });
  const setFilters = useCallback(
    (changes: UrlStateChanges<K>, options?: { push?: boolean }) => set({ ...changes, [pageParam]: null }, options),
    [set, pageParam],
  );
  const setPage = useCallback((page: number) => set({ [pageParam]: page }, { push: true }), [set, pageParam]);
  return { filters: values as Record<K, string>, page: pageNumber(values[pageParam] ?? "1"), setFilters, setPage };
}
