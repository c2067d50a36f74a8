import { afterEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { admit } from "@/lib/http/admission";
import { waitsForTurn } from "@/lib/http/api-routes";
import { bearerCallerKey, callerOf, createAdmission, type AdmissionSettings, type Caller, type Refusal } from "@/server/admission.mjs";

// Admission control (server/admission.mjs, one core for server.mjs and the route wrapper): a fixed
// number of requests at a time, turns shared fairly among callers (weighted by their service time),
// per-caller rate and waiting limits answered 429 with Retry-After and RateLimit fields.

const settings = (over: Partial<Omit<AdmissionSettings, "caller">> & { caller?: Partial<AdmissionSettings["caller"]> } = {}): AdmissionSettings => ({
  concurrency: 1,
  queue: 1000,
  maxWaitMs: 60_000,
  ...over,
  caller: { rate: 1000, burst: 1000, queue: 1000, ...over.caller },
});

/** An admission queue on a clock the test moves, and a log of the order requests started in. */
function harness(s: AdmissionSettings) {
  let clock = 0;
  const started: string[] = [];
  const refused: [string, Refusal][] = [];
  const admission = createAdmission({ settings: () => s, now: () => clock });
  const running = new Map<string, () => void>();
  const send = (caller: Caller, name: string) => {
    const ticket = admission.arrive(caller);
    if (ticket.refusal) {
      refused.push([name, ticket.refusal]);
      return ticket;
    }
    ticket.wait(
      () => {
        started.push(name);
        running.set(name, () => ticket.end());
      },
      (r) => refused.push([name, r]),
    );
    return ticket;
  };
  /** `name` finishes after `ms` of service */
  const finish = (name: string, ms = 10) => {
    clock += ms;
    const end = running.get(name);
    if (!end) throw new Error(`${name} is not running (started: ${started.join(",")})`);
    running.delete(name);
    end();
  };
  return { admission, send, finish, started, refused, running, tick: (ms: number) => (clock += ms) };
}

const A: Caller = { key: "a", kind: "agent" };
const B: Caller = { key: "b", kind: "agent" };
const C: Caller = { key: "c", kind: "hq_user" };

describe("fair turns among callers", () => {
  it("serves one caller's requests in arrival order and never more than the concurrency", () => {
    const h = harness(settings({ concurrency: 3 }));
    for (let i = 0; i < 5; i++) h.send(i < 4 ? A : B, `${i < 4 ? "a" : "b"}${i}`);
    // a lone caller holds at most half the slots (two of three); the other caller's request takes one at once
    expect(h.started).toEqual(["a0", "a1", "b4"]);
    expect(h.admission.running).toBe(3);
    h.finish("a0");
    h.finish("a1");
    expect(h.started).toEqual(["a0", "a1", "b4", "a2", "a3"]);
  });

  it("goes round the callers with requests waiting: a newcomer does not wait behind another caller's backlog", () => {
    const h = harness(settings({ concurrency: 1 }));
    for (let i = 0; i < 6; i++) h.send(A, `a${i}`);
    h.send(B, "b0");
    h.send(B, "b1");
    h.send(C, "c0");
    for (const name of ["a0", "b0", "c0", "a1", "b1", "a2"]) h.finish(name);
    expect(h.started).toEqual(["a0", "b0", "c0", "a1", "b1", "a2", "a3"]);
  });

  it("weights turns by service time: a caller whose requests take 10× longer gets about a tenth of the turns", () => {
    const h = harness(settings({ concurrency: 1 }));
    // both callers' recent service time is learnt from their requests
    for (let i = 0; i < 40; i++) {
      h.send(A, `a${i}`);
      h.send(B, `b${i}`);
    }
    const slow = (name: string) => (name.startsWith("a") ? 100 : 10);
    for (let n = 0; n < 33; n++) h.finish(h.started.at(-1)!, slow(h.started.at(-1)!));
    // a0 and b0 teach each caller's service time; from then on about ten of B's for one of A's
    expect(h.started.slice(0, 3)).toEqual(["a0", "b0", "b1"]);
    const turnsOfA = h.started.slice(1, 34).filter((s) => s.startsWith("a")).length;
    expect(turnsOfA).toBeGreaterThanOrEqual(2);
    expect(turnsOfA).toBeLessThanOrEqual(5);
  });

  it("gives a caller below its share the next turn before one above it", () => {
    const h = harness(settings({ concurrency: 4 }));
    for (let i = 0; i < 10; i++) h.send(A, `a${i}`);
    // alone, A holds half the slots: a newcomer finds one free at once
    expect(h.started).toEqual(["a0", "a1"]);
    for (let i = 0; i < 4; i++) h.send(B, `b${i}`);
    expect(h.started).toEqual(["a0", "a1", "b0", "b1"]);
    // each has a share of two: the slot a0 frees goes to A (one running), not to B (two)
    h.finish("a0");
    expect(h.started.at(-1)).toBe("a2");
    // and the one b0 frees to B, not to A (two again)
    h.finish("b0");
    expect(h.started.at(-1)).toBe("b2");
    expect(h.admission.running).toBe(4);
  });

  it("holds one caller to callerConcurrency running requests even with slots free", () => {
    const h = harness(settings({ concurrency: 10, callerConcurrency: 2 }));
    for (let i = 0; i < 6; i++) h.send(A, `a${i}`);
    // half of ten would be five: the caller's own cap of two holds
    expect(h.started).toEqual(["a0", "a1"]);
    h.send(B, "b0");
    expect(h.started).toEqual(["a0", "a1", "b0"]);
    h.finish("a0");
    expect(h.started).toEqual(["a0", "a1", "b0", "a2"]);
    expect(h.admission.running).toBe(3);
  });
});

describe("per-caller limits", () => {
  it("refuses a caller over its rate with 429, Retry-After and the RateLimit fields, and no one else", () => {
    const h = harness(settings({ concurrency: 10, caller: { rate: 2, burst: 3 } }));
    for (let i = 0; i < 4; i++) h.send(A, `a${i}`);
    h.send(B, "b0");
    expect(h.started).toEqual(["a0", "a1", "a2", "b0"]);
    const [name, refusal] = h.refused[0]!;
    expect(name).toBe("a3");
    expect(refusal).toMatchObject({ status: 429, code: "rate_limited", reason: "rate_limited" });
    expect(refusal.headers).toEqual({
      "retry-after": "1",
      ratelimit: '"rate";r=0;t=1',
      "ratelimit-policy": '"rate";q=3;w=2, "waiting";q=1000;qu="concurrent-requests"',
    });
    // half a second later one request's worth has come back
    h.tick(500);
    h.send(A, "a4");
    expect(h.started.at(-1)).toBe("a4");
  });

  it("refuses a caller with too many requests waiting, and an agent's own limits replace the defaults", () => {
    const h = harness(settings({ concurrency: 1, caller: { queue: 3 } }));
    for (let i = 0; i < 6; i++) h.send(A, `a${i}`);
    // one running, three waiting: the cap counts every request not running yet
    expect(h.started).toEqual(["a0"]);
    expect(h.refused.map(([n, r]) => [n, r.reason])).toEqual([["a4", "caller_queue_full"], ["a5", "caller_queue_full"]]);
    h.send(B, "b0");
    expect(h.refused).toHaveLength(2);
    h.admission.setCallerLimits("a", { rate: null, burst: null, queue: 10 });
    h.send(A, "a5");
    expect(h.refused).toHaveLength(2);
    h.admission.setCallerLimits("a", null);
    h.send(A, "a6");
    expect(h.refused.at(-1)![0]).toBe("a6");
  });
});

describe("the instance's queue", () => {
  it("refuses at once with 429 when the queue is full, and after the longest wait", () => {
    const h = harness(settings({ concurrency: 1, queue: 1, maxWaitMs: 100 }));
    h.send(A, "a0");
    h.send(B, "b0");
    h.send(C, "c0");
    expect(h.refused.map(([n, r]) => [n, r.reason, r.status])).toEqual([["c0", "queue_full", 429]]);
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        expect(h.refused.map(([n, r]) => [n, r.reason])).toEqual([["c0", "queue_full"], ["b0", "timeout"]]);
        // the slot is free again once a0 ends, and the next request runs
        h.finish("a0");
        h.send(C, "c1");
        expect(h.started).toEqual(["a0", "c1"]);
        resolve();
      }, 150),
    );
  });

  it("frees the place of a request whose caller left, and refuses every waiting request at shutdown with 503", () => {
    const h = harness(settings({ concurrency: 1 }));
    h.send(A, "a0");
    const leaving = h.send(B, "b0");
    h.send(C, "c0");
    leaving.end();
    expect(h.admission.waiting).toBe(1);
    h.admission.refuseWaiting();
    expect(h.refused.map(([n, r]) => [n, r.status, r.code])).toEqual([["c0", 503, "service_unavailable"]]);
    h.finish("a0");
    expect(h.started).toEqual(["a0"]);
    expect(h.admission.running).toBe(0);
  });
});

describe("who a request comes from (for its place in the queue only)", () => {
  it("tells callers apart by a hash of their bearer token or session cookie, else by address", () => {
    const agent = callerOf({ authorization: "Bearer mhq_abc", address: "10.0.0.1" });
    expect(agent).toEqual({ key: bearerCallerKey("mhq_abc"), kind: "agent" });
    expect(agent.key).not.toContain("mhq_abc");
    // a made-up token is a flow of its own, refused later at authentication
    expect(callerOf({ authorization: "Bearer mhq_abd" }).key).not.toBe(agent.key);
    expect(callerOf({ authorization: "Bearer admin-key-0123456789", adminKey: "admin-key-0123456789" }).kind).toBe("admin");
    const session = callerOf({ cookie: "theme=dark; mhq_session=s3cret", address: "10.0.0.1" });
    expect(session.kind).toBe("hq_user");
    expect(session.key).not.toContain("s3cret");
    expect(callerOf({ cookie: "sb-proj-auth-token.0=part1; sb-proj-auth-token.1=part2" }).kind).toBe("hq_user");
    expect(callerOf({ cookie: "theme=dark", address: "10.0.0.1" })).toEqual({ key: "address:10.0.0.1", kind: "anonymous" });
  });
});

describe("which requests wait for a turn", () => {
  it("all API requests but the health check and the metrics scrape, which must answer while the queue is full", () => {
    expect(waitsForTurn("/api/health")).toBe(false);
    expect(waitsForTurn("/api/metrics")).toBe(false);
    expect(waitsForTurn("/api/v1/agents/me")).toBe(true);
    expect(waitsForTurn("/api/mcp")).toBe(true);
    expect(waitsForTurn("/api/v1/no-such-thing")).toBe(true);
  });
});

describe("the route wrapper's admission (next dev, in-process tests)", () => {
  afterEach(() => {
    for (const k of ["ADMISSION_CONCURRENCY", "ADMISSION_QUEUE", "ADMISSION_MAX_WAIT_MS", "ADMISSION_CALLER_QUEUE"]) delete process.env[k];
    resetConfigForTests();
  });

  it("answers a caller over its waiting cap 429 with the RateLimit fields, and one that left 499 without running it", async () => {
    Object.assign(process.env, { ADMISSION_CONCURRENCY: "1", ADMISSION_CALLER_QUEUE: "1" });
    resetConfigForTests();
    const request = (key: string, signal?: AbortSignal) => new Request("http://x/api/v1/agents", { headers: { authorization: `Bearer ${key}` }, signal });
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    let ran = 0;
    const first = admit(request("mhq_route_wrapper_a"), async () => (await gate, new Response("a")));
    const abort = new AbortController();
    const leaving = admit(request("mhq_route_wrapper_a", abort.signal), async () => (ran++, new Response("gone")));
    const over = await admit(request("mhq_route_wrapper_a"), async () => (ran++, new Response("over")));
    expect(over.status).toBe(429);
    expect(over.headers.get("ratelimit")).toMatch(/^"waiting";r=0;t=\d+$/);
    expect(over.headers.get("ratelimit-policy")).toContain('"waiting";q=1;qu="concurrent-requests"');
    expect((await over.json()).error.code).toBe("rate_limited");
    abort.abort();
    expect((await leaving).status).toBe(499);
    open();
    expect(await (await first).text()).toBe("a");
    expect((await first).headers.get("server-timing")).toMatch(/^queue;dur=[\d.]+, app;dur=[\d.]+$/);
    expect(ran).toBe(0);
  });
});
