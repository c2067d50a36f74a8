"use client";

import { useEffect, useState } from "react";

/** `value` once typing has paused for `ms`: a search or a server-side draft follows the words, not each keystroke. */
export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}
