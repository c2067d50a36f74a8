import { describe, expect, it } from "vitest";
import { StepSize } from "@/lib/db/steps";

/** Runs steps of a job whose step costs `fixed + perItem × n` ms; the sizes it chose. */
function simulate(size: StepSize, cost: (n: number, step: number) => number, steps = 40) {
  const sizes: number[] = [];
  for (let s = 0; s < steps; s++) {
    const n = size.next();
    sizes.push(n);
    size.record(n, cost(n, s));
  }
  return sizes;
}

describe("step size", () => {
  it("settles where a step with its fixed cost takes the target", () => {
    const sizes = simulate(new StepSize({ targetMs: 20, first: 4, max: 500 }), (n) => 4 + 0.5 * n);
    // 4 + 0.5 n = 20 at n = 32
    expect(sizes.slice(-5).every((n) => n >= 28 && n <= 36)).toBe(true);
  });

  it("shrinks to one item a step for items that alone take longer than the target", () => {
    const sizes = simulate(new StepSize({ targetMs: 20, first: 16, max: 500 }), (n) => 35 * n, 10);
    expect(sizes.slice(-3)).toEqual([1, 1, 1]);
  });

  it("changes at most by half or double per step, so one slow step does not collapse the next ones", () => {
    const sizes = simulate(new StepSize({ targetMs: 20, first: 32, max: 500 }), (n, s) => (s === 10 ? 400 : 4 + 0.5 * n), 14);
    expect(sizes[11]).toBeGreaterThanOrEqual(Math.floor(sizes[10]! / 2));
    // and the steps after it are back at the settled size (4 + 0.5 n = 20 at n = 32)
    expect(sizes[13]).toBeGreaterThanOrEqual(28);
  });

  it("takes one and a half times the fixed cost when that alone is over the target, not one item a step", () => {
    // 36 ms whatever the size, 0.1 ms an item: one item a step would hold the database 36 ms for each
    const cost = (n: number) => 36 + 0.1 * n;
    const sizes = simulate(new StepSize({ targetMs: 20, first: 4, max: 500 }), cost);
    // 36 + 0.1 n = 54 at n = 180
    expect(sizes.slice(-5).every((n) => n >= 160 && n <= 200)).toBe(true);
    expect(Math.max(...sizes.map(cost))).toBeLessThan(60);
  });

  it("settles on a busy machine whose steps take up to half again as long at random", () => {
    let seed = 7;
    const noise = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 0.5;
    const sizes = simulate(new StepSize({ targetMs: 20, first: 4, max: 500 }), (n) => (4 + 0.5 * n) * (1 + noise()), 60);
    // 4 + 0.5 n is 20 at n = 32; with the noise a step of 32 takes 20–30 ms
    expect(sizes.slice(-10).every((n) => n >= 16 && n <= 40)).toBe(true);
  });

  it("stays within min and max", () => {
    expect(simulate(new StepSize({ targetMs: 20, first: 4, min: 2, max: 10 }), () => 0.1).slice(-1)).toEqual([10]);
    expect(simulate(new StepSize({ targetMs: 20, first: 4, min: 2, max: 10 }), (n) => 1000 * n).slice(-1)).toEqual([2]);
  });
});
