"use client";

import { useEffect, useRef, useState } from "react";

/**
 * A filter typed into a box (a search): the box follows every keystroke, the filter (`committed`,
 * usually in the address) takes the text once typing pauses — each search runs on the server — and
 * the box follows the filter when it changes from elsewhere (Back, Clear, a link).
 * Returns the text, its setter, and whether the filter is still behind the text.
 */
export function useTypedFilter(committed: string, commit: (value: string) => void, ms = 300) {
  const [text, setText] = useState(committed);
  const commitRef = useRef(commit);
  commitRef.current = commit;
  const last = useRef(committed);

  useEffect(() => {
    if (committed === last.current) return;
    last.current = committed;
    setText(committed);
  }, [committed]);

  const trimmed = text.trim();
  useEffect(() => {
    if (trimmed === last.current) return;
    const timer = setTimeout(() => {
      last.current = trimmed;
      commitRef.current(trimmed);
    }, ms);
    return () => clearTimeout(timer);
  }, [trimmed, ms]);

  return [text, setText, trimmed !== committed] as const;
}
