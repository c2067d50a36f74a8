import { describe, expect, it } from "vitest";
import { interactiveRequestStarted } from "@/lib/db/activity";
import { Lanes } from "@/lib/db/lanes";

const tick = () => new Promise((r) => setImmediate(r));

describe("bulk and interactive lanes", () => {
  it("a bulk step waits while interactive work waits for a connection, and starts once none does", async () => {
    const lanes = new Lanes({ bulkConnections: 1, maxWaitMs: 10_000 });
    const doneA = lanes.interactive();
    const doneB = lanes.interactive();
    let ran = false;
    const step = lanes.bulk(async () => {
      ran = true;
    });
    await tick();
    expect(ran).toBe(false);
    doneA();
    await tick();
    expect(ran).toBe(false);
    doneB();
    await step;
    expect(ran).toBe(true);
  });

  it("holds at most bulkConnections steps at once, in the order they asked", async () => {
    const lanes = new Lanes({ bulkConnections: 2, maxWaitMs: 10_000 });
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const step = (name: string) =>
      lanes.bulk(async () => {
        running++;
        most = Math.max(most, running);
        order.push(name);
        await new Promise((r) => setTimeout(r, 5));
        running--;
      });
    await Promise.all(["a", "b", "c", "d", "e"].map(step));
    expect(most).toBe(2);
    expect(order).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("a step that waited its limit goes ahead of interactive work that never pauses", async () => {
    const lanes = new Lanes({ bulkConnections: 1, maxWaitMs: 30 });
    const busy = lanes.interactive();
    const started = Date.now();
    await lanes.bulk(async () => {});
    expect(Date.now() - started).toBeGreaterThanOrEqual(29);
    busy();
  });

  it("an interactive operation that asked while a step ran goes before the next step", async () => {
    const lanes = new Lanes({ bulkConnections: 1, maxWaitMs: 10_000 });
    const order: string[] = [];
    let release!: () => void;
    const first = lanes.bulk(
      () =>
        new Promise<void>((r) => {
          order.push("step 1");
          release = r;
        }),
    );
    await tick();
    const done = lanes.interactive();
    const second = lanes.bulk(async () => {
      order.push("step 2");
    });
    release();
    await first;
    await tick();
    order.push("interactive");
    done();
    await second;
    expect(order).toEqual(["step 1", "interactive", "step 2"]);
    expect(lanes.state).toEqual({ interactiveWaiting: 0, bulkHeld: 0, bulkWaiting: 0 });
  });

  it("yielding to requests, a step waits while a request is in progress — between its statements too — and starts when the last one ends", async () => {
    const lanes = new Lanes({ bulkConnections: 1, maxWaitMs: 10_000, yieldToRequests: true });
    const endA = interactiveRequestStarted();
    const endB = interactiveRequestStarted();
    let ran = false;
    const step = lanes.bulk(async () => {
      ran = true;
    });
    // no statement of either request waits for the connection now: the step still waits
    await tick();
    expect(ran).toBe(false);
    endA();
    await tick();
    expect(ran).toBe(false);
    endB();
    await step;
    expect(ran).toBe(true);
    expect(lanes.state).toEqual({ interactiveWaiting: 0, bulkHeld: 0, bulkWaiting: 0 });
  });

  it("not yielding to requests (a server database), a step starts between a request's statements", async () => {
    const lanes = new Lanes({ bulkConnections: 1, maxWaitMs: 10_000 });
    const end = interactiveRequestStarted();
    let ran = false;
    await lanes.bulk(async () => {
      ran = true;
    });
    expect(ran).toBe(true);
    end();
  });
});
