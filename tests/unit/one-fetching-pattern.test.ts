import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The console has one data-fetching pattern: components and pages never call the API or TanStack Query
 * directly; they use the named hooks in lib/console/hooks, built on the query-key factories.
 */

const root = path.resolve(__dirname, "../..");
const INLINE = /\b(apiFetch|apiCall|useQuery|useQueries|useInfiniteQuery|useSuspenseQuery|useMutation)\b/;
// files allowed to fetch inline while they are being moved to hooks (none left)
const NOT_YET_MOVED = new Set<string>();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) ? [path.relative(root, full)] : [];
  });
}

// route handlers are server code, not the console
const consoleFiles = [...sourceFiles(path.join(root, "components")), ...sourceFiles(path.join(root, "app"))].filter(
  (f) => !f.startsWith(path.join("app", "api") + path.sep),
);

describe("one data-fetching pattern in the console", () => {
  it("finds the console's components and pages", () => {
    expect(consoleFiles.length).toBeGreaterThan(20);
  });

  it("no component or page calls the API or TanStack Query directly", () => {
    const inline = consoleFiles.filter((f) => !NOT_YET_MOVED.has(f) && INLINE.test(readFileSync(path.join(root, f), "utf8")));
    expect(inline).toEqual([]);
  });

  it("lists only files that still fetch inline as not yet moved", () => {
    for (const f of NOT_YET_MOVED) expect(INLINE.test(readFileSync(path.join(root, f), "utf8")), f).toBe(true);
  });
});
