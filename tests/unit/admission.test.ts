import { afterEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { admit } from "@/lib/http/admission";

// The API's admission queue: a fixed number of requests at a time, the rest served in arrival order,
// refused at once with 429 + Retry-After when the queue is full or the wait too long.

function configure(env: Record<string, string>) {
  Object.assign(process.env, env);
  resetConfigForTests();
}

afterEach(() => {
  delete process.env.ADMISSION_CONCURRENCY;
  delete process.env.ADMISSION_QUEUE;
  delete process.env.ADMISSION_MAX_WAIT_MS;
  resetConfigForTests();
});

/** A request whose work finishes when the test says so. */
function gate() {
  let open!: () => void;
  const done = new Promise<void>((r) => (open = r));
  return { open, done };
}

describe("admission", () => {
  it("runs at most ADMISSION_CONCURRENCY at once and serves the waiting ones in arrival order", async () => {
    configure({ ADMISSION_CONCURRENCY: "2", ADMISSION_QUEUE: "10" });
    const started: number[] = [];
    const gates = Array.from({ length: 6 }, gate);
    const responses = gates.map((g, i) =>
      admit(undefined, async () => {
        started.push(i);
        await g.done;
        return new Response(String(i));
      }),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    const bodies = await Promise.all(responses.map(async (r) => (await r).text()));
    expect(bodies).toEqual(["0", "1", "2", "3", "4", "5"]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("refuses at once with 429 and Retry-After when the queue is full", async () => {
    configure({ ADMISSION_CONCURRENCY: "1", ADMISSION_QUEUE: "1" });
    const g = gate();
    const first = admit(undefined, async () => (await g.done, new Response("a")));
    const second = admit(undefined, async () => new Response("b"));
    const third = await admit(undefined, async () => new Response("c"));
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await third.json()).error.code).toBe("rate_limited");
    g.open();
    expect(await (await first).text()).toBe("a");
    expect(await (await second).text()).toBe("b");
  });

  it("refuses a request that waited too long, and one whose caller left, without running it", async () => {
    configure({ ADMISSION_CONCURRENCY: "1", ADMISSION_QUEUE: "5", ADMISSION_MAX_WAIT_MS: "100" });
    const g = gate();
    let ran = 0;
    const first = admit(undefined, async () => (await g.done, new Response("a")));
    const late = await admit(undefined, async () => (ran++, new Response("late")));
    expect(late.status).toBe(429);
    const abort = new AbortController();
    const leaving = admit(abort.signal, async () => (ran++, new Response("gone")));
    abort.abort();
    expect((await leaving).status).toBe(429);
    g.open();
    await first;
    expect(ran).toBe(0);
    // the slot is free again
    expect(await (await admit(undefined, async () => new Response("next"))).text()).toBe("next");
  });
});
