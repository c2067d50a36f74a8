/** One line of the `npm run bench` table. */
export interface BenchRow {
  benchmark: string;
  n: number;
  p50: number;
  p95: number;
  notes: string;
}

/** A module of the bench: sets up what it needs and returns its rows. */
export type BenchModule = () => Promise<BenchRow[]>;

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

/**
 * Times `fn` `n` times, one after another, after `warmup` untimed runs. `i` counts from 0 over the
 * warmup and the timed runs, so every call can use fresh data.
 */
export async function measure(
  benchmark: string,
  opts: { n: number; warmup?: number; notes?: string },
  fn: (i: number) => Promise<unknown>,
): Promise<BenchRow> {
  const warmup = opts.warmup ?? 5;
  for (let i = 0; i < warmup; i++) await fn(i);
  const times: number[] = [];
  for (let i = 0; i < opts.n; i++) {
    const start = performance.now();
    await fn(warmup + i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const row = { benchmark, n: opts.n, p50: percentile(times, 50), p95: percentile(times, 95), notes: opts.notes ?? "" };
  // progress while a long bench runs (the table is printed at the end)
  process.stderr.write(`bench: ${benchmark}: p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms\n`);
  return row;
}

export function formatTable(rows: BenchRow[]): string {
  const header = ["benchmark", "n", "p50 ms", "p95 ms", "notes"];
  const cells = rows.map((r) => [r.benchmark, String(r.n), r.p50.toFixed(2), r.p95.toFixed(2), r.notes]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 1 || i === 2 || i === 3 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join("  ").trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(line)].join("\n");
}
