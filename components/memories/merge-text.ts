import { applyPatch, diffLines, structuredPatch } from "diff";

export interface MergeResult {
  text: string;
  /** false when both writers changed the same lines: `text` then holds the saved text with the
   *  lines only you wrote appended, so nothing of either version is lost */
  clean: boolean;
}

/**
 * Three-way merge of a document: the changes you made to `base` (the version your edit started
 * from) are replayed onto `theirs` (the version someone else saved meanwhile), so both writers'
 * lines survive.
 */
export function mergeText(base: string, mine: string, theirs: string): MergeResult {
  if (mine === base || mine === theirs) return { text: theirs, clean: true };
  if (theirs === base) return { text: mine, clean: true };
  const patch = structuredPatch("document", "document", base, mine, "", "", { context: 2 });
  const merged = applyPatch(theirs, patch);
  if (merged !== false) return { text: merged, clean: true };
  const added = diffLines(base, mine)
    .filter((part) => part.added)
    .map((part) => part.value.replace(/\n$/, ""))
    .join("\n");
  const text = added ? `${theirs.replace(/\n*$/, "")}\n\n${added}` : theirs;
  return { text, clean: false };
}
