"use client";

import { useCallback, useMemo, useRef, useState } from "react";

/** `prev` with `ids` added (`on`) or taken out: a new set, for React state. */
export function withIds(prev: ReadonlySet<string>, ids: readonly string[], on: boolean): ReadonlySet<string> {
  const next = new Set(prev);
  for (const id of ids) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return next;
}

/**
 * Ticked rows of a list in `order` (the rows shown): `toggle` ticks or unticks one and makes it the
 * anchor; `extend` ticks every row from the anchor to another (Shift with a click, x, j or k), as in a
 * mail client. Rows that leave the list leave the selection.
 */
export function useSelection(order: readonly string[]) {
  const [ticked, setTicked] = useState<ReadonlySet<string>>(() => new Set());
  const anchor = useRef<string | null>(null);

  const set = useCallback((ids: readonly string[], on: boolean) => setTicked((prev) => withIds(prev, ids, on)), []);

  const toggle = useCallback(
    (id: string) => {
      anchor.current = id;
      setTicked((prev) => {
        const next = new Set(prev);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
    },
    [],
  );

  /** Ticks every row from the anchor (else `from`, else `to` alone) to `to`; the anchor stays. */
  const extend = useCallback(
    (to: string, from?: string) => {
      if (!anchor.current || !order.includes(anchor.current)) anchor.current = from ?? to;
      const start = anchor.current;
      const [a, b] = [order.indexOf(start), order.indexOf(to)].sort((x, y) => x - y) as [number, number];
      if (a < 0) return;
      set(order.slice(a, b + 1), true);
    },
    [order, set],
  );

  const clear = useCallback(() => {
    anchor.current = null;
    setTicked(new Set());
  }, []);

  // only rows still shown count (a decision or a filter change takes rows away)
  const selected = useMemo(() => order.filter((id) => ticked.has(id)), [order, ticked]);
  const isTicked = useCallback((id: string) => ticked.has(id), [ticked]);

  return { selected, isTicked, toggle, extend, set, clear, anchorId: () => anchor.current };
}
