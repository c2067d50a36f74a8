// Admission control for the API: who gets the next turn, and who is turned away. One core, plain
// JavaScript, used by the production server as requests arrive (server.mjs) and by the route wrapper
// where the app runs without it (`next dev`, the in-process tests: lib/http/admission.ts).
//
// - At most `concurrency` requests run at once. When more wait, the turns go round the callers that
//   have requests waiting — each caller (an agent key, an HQ user's session, the admin key; requests
//   without either grouped by address) is a flow of its own, served in arrival order — so a caller
//   with 64 requests in flight waits behind its own requests, not in front of everyone else's.
// - Turns are weighted by service time (start-time fair queuing): each flow's virtual clock advances
//   by its recent service time per request, and the waiting flow whose clock is furthest behind goes
//   next; a flow that was idle starts level with the others (idle time earns no credit). An importer
//   whose requests take seconds gets a turn after a reader's many short ones, not before.
// - One caller never holds more than half the slots (with two or more, at least one is left for
//   another caller), nor more than `callerConcurrency` (by default the machine's cores): a request
//   cannot be paused once it runs, so a quiet caller's request shares the CPU with every request a
//   busy caller has running, and that must stay a few. While others wait, a caller above its share
//   (the slots divided among the callers with work) gets a turn only once the others below theirs
//   had one.
// - Per caller: a request rate with a burst (a token bucket) and a cap on requests waiting (received,
//   body being read or waiting for a turn). Over either: 429 `rate_limited` with Retry-After and the
//   RateLimit / RateLimit-Policy fields (IETF httpapi ratelimit-headers draft). An agent's own limits,
//   set by an HQ admin, replace the defaults once its key has been verified (`setCallerLimits`).
// - Over all callers: once `queue` requests wait, a newcomer gets 429; a request that waited
//   `maxWaitMs` gets 429 instead of being served after its caller gave up; a caller that leaves
//   (disconnects) leaves the queue and frees its slot.
//
// The caller is named from what the request carries before anything is verified (a hash of the bearer
// token or session cookie, or the peer address). That is used for queue placement only: a made-up
// token gets a flow of its own and is refused at authentication like any other.
import { createHash } from "node:crypto";

/** Metric label of a caller: never an id, a key or anything the caller wrote. */
export const CALLER_KINDS = Object.freeze(["agent", "hq_user", "admin", "anonymous"]);
/** Why a request got no turn. `abandoned`: its caller left while waiting. */
export const REFUSAL_REASONS = Object.freeze(["queue_full", "caller_queue_full", "rate_limited", "timeout", "abandoned"]);

/** The session cookies of HQ users: the built-in one and Supabase Auth's (chunked as .0, .1, …). */
const SESSION_COOKIE = /^(?:mhq_session|sb-.+-auth-token(?:\.\d+)?)$/;

const sha256 = (text) => createHash("sha256").update(text).digest("hex");

/** The flow key of a bearer token (what `setCallerLimits` is called with once the key is verified). */
export const bearerCallerKey = (token) => `bearer:${sha256(token)}`;

let admin = { token: "", key: "" };
const adminCallerKey = (token) => {
  if (admin.token !== token) admin = { token, key: bearerCallerKey(token) };
  return admin.key;
};

/**
 * Who a request comes from, for queue placement and metric labels: `{ key, kind }`.
 * `authorization` and `cookie` are the request's headers; `address` the client's address as far as it
 * is trusted; `adminKey` ADMIN_API_KEY (a bearer token equal to it is the admin key).
 */
export function callerOf({ authorization, cookie, address, adminKey }) {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
  if (bearer) {
    const key = bearerCallerKey(bearer);
    return { key, kind: adminKey && key === adminCallerKey(adminKey) ? "admin" : "agent" };
  }
  if (cookie) {
    const session = [];
    for (const part of cookie.split(";")) {
      const eq = part.indexOf("=");
      if (eq > 0 && SESSION_COOKIE.test(part.slice(0, eq).trim())) session.push(part.slice(eq + 1).trim());
    }
    if (session.length) return { key: `session:${sha256(session.join(""))}`, kind: "hq_user" };
  }
  return { key: `address:${address || "unknown"}`, kind: "anonymous" };
}

/** Idle flows are forgotten once their bucket is full again (or after this); an agent's limits are kept this long unused. */
const FORGET_AFTER_MS = 10 * 60_000;

/**
 * An admission queue. `settings()` gives the limits in force, read at each arrival:
 * `{ concurrency, callerConcurrency?, queue, maxWaitMs, caller: { rate, burst, queue } }`. `hooks` report to metrics:
 * `state(waiting, running)`, `waited(kind, seconds)`, `rejected(reason, kind)`, `limits(concurrency, queue)`.
 */
export function createAdmission({ settings, hooks = {}, now = () => performance.now() }) {
  const report = {
    state: hooks.state ?? (() => {}),
    waited: hooks.waited ?? (() => {}),
    rejected: hooks.rejected ?? (() => {}),
    limits: hooks.limits ?? (() => {}),
  };
  /** caller key → flow */
  const flows = new Map();
  /** caller key → { limits, at }: limits an HQ admin set for an agent, as its last verified request saw them */
  const overrides = new Map();
  /** flows with requests waiting for a turn, in the order they began to wait */
  const backlog = [];
  let running = 0;
  let waiting = 0;
  /** flows with a request running or waiting */
  let active = 0;
  /** the latest start tag dispatched: the virtual time a caller that becomes active starts from */
  let virtualTime = 0;
  /** exponentially weighted mean service time of every request, in ms */
  let serviceMs = 50;
  let lastSweep = now();
  let current = settings();

  function flowOf(caller, at) {
    let flow = flows.get(caller.key);
    if (!flow) {
      flow = { key: caller.key, kind: caller.kind, queue: [], running: 0, pending: 0, tokens: null, refilledAt: at, vtime: 0, serviceMs, lastSeen: at };
      flows.set(caller.key, flow);
    }
    flow.lastSeen = at;
    return flow;
  }

  /** The limits of `flow`: an agent's own (for any the admin set), else the defaults. */
  function limitsOf(flow) {
    const own = overrides.get(flow.key)?.limits;
    const d = current.caller;
    return own ? { rate: own.rate ?? d.rate, burst: own.burst ?? d.burst, queue: own.queue ?? d.queue } : d;
  }

  function refill(flow, limits, at) {
    if (flow.tokens === null) flow.tokens = limits.burst;
    flow.tokens = Math.min(limits.burst, flow.tokens + ((at - flow.refilledAt) / 1000) * limits.rate);
    flow.refilledAt = at;
  }

  /** The RateLimit-Policy field: the request rate as a quota per window, and the cap on waiting requests. */
  const policyField = (limits) =>
    `"rate";q=${limits.burst};w=${Math.max(1, Math.ceil(limits.burst / limits.rate))}, "waiting";q=${limits.queue};qu="concurrent-requests"`;

  function refusal(status, reason, message, retryAfter, extraHeaders = {}) {
    return {
      status,
      reason,
      code: status === 429 ? "rate_limited" : "service_unavailable",
      message,
      retryAfter,
      headers: { "retry-after": String(retryAfter), ...extraHeaders },
    };
  }

  /** Seconds until a turn is likely: `ahead` requests before it, served `share` at a time. */
  const estimate = (ahead, ms, share) => Math.max(1, Math.ceil((ahead * ms) / Math.max(1, share) / 1000));

  function sweep(at) {
    if (at - lastSweep < 30_000) return;
    lastSweep = at;
    for (const [key, flow] of flows) {
      if (flow.running || flow.pending) continue;
      // a flow forgotten with a full bucket is the same as a new one; its virtual clock would be
      // caught up with the others' anyway
      const limits = limitsOf(flow);
      const full = flow.tokens === null || flow.tokens + ((at - flow.refilledAt) / 1000) * limits.rate >= limits.burst;
      if (full || at - flow.lastSeen > FORGET_AFTER_MS) flows.delete(key);
    }
    for (const [key, o] of overrides) if (at - o.at > FORGET_AFTER_MS && !flows.has(key)) overrides.delete(key);
  }

  /**
   * The most slots one caller may hold: half of them (all but one of two or three), so another caller
   * always finds a slot free, and at most `callerConcurrency`, so its work shares the CPU and the
   * database with few of the busy caller's.
   */
  const hardCap = () =>
    current.concurrency > 1
      ? Math.max(1, Math.min(current.concurrency - 1, Math.ceil(current.concurrency / 2), current.callerConcurrency ?? Infinity))
      : 1;
  /** A caller's share while others wait: the slots divided among the callers with work. */
  const fairShare = () => Math.max(1, Math.ceil(current.concurrency / Math.max(1, active)));

  /** The waiting flow that goes next, or null (none waits, or none may take a slot now). */
  function pick() {
    let best = null;
    let bestTag = Infinity;
    let bestFair = false;
    const cap = hardCap();
    const share = fairShare();
    for (const flow of backlog) {
      if (flow.running >= cap) continue;
      const fair = flow.running < share;
      const tag = flow.vtime;
      if ((fair && !bestFair) || (fair === bestFair && tag < bestTag)) {
        best = flow;
        bestTag = tag;
        bestFair = fair;
      }
    }
    return best;
  }

  function dispatch() {
    while (running < current.concurrency) {
      const flow = pick();
      if (!flow) break;
      const ticket = flow.queue.shift();
      if (!flow.queue.length) backlog.splice(backlog.indexOf(flow), 1);
      waiting -= 1;
      start(ticket);
    }
    report.state(waiting, running);
  }

  function start(ticket) {
    const flow = ticket.flow;
    clearTimeout(ticket.timer);
    ticket.state = "running";
    flow.pending -= 1;
    flow.running += 1;
    running += 1;
    const tag = flow.vtime;
    virtualTime = Math.max(virtualTime, tag);
    ticket.charged = flow.serviceMs;
    flow.vtime = tag + ticket.charged;
    ticket.startedAt = now();
    report.waited(flow.kind, (ticket.startedAt - ticket.arrivedAt) / 1000);
    const onTurn = ticket.onTurn;
    ticket.onTurn = ticket.onRefused = null;
    onTurn((ticket.startedAt - ticket.arrivedAt).toFixed(1));
  }

  function becameIdle(flow) {
    if (!flow.running && !flow.queue.length) active -= 1;
  }

  function makeTicket(flow, at) {
    const ticket = {
      flow,
      kind: flow.kind,
      state: "pending",
      arrivedAt: at,
      refusal: null,
      /**
       * Takes a turn: `onTurn(queueMs)` runs when it comes, or `onRefused(refusal)` when the request
       * is refused instead (the queue full, the wait too long, the server shutting down).
       */
      wait(onTurn, onRefused) {
        if (ticket.state !== "pending") return;
        current = settings();
        if (!flow.running && !flow.queue.length) {
          // a caller with nothing in progress starts level with the others: idle time earns no credit
          active += 1;
          flow.vtime = Math.max(flow.vtime, virtualTime);
        }
        if (running < current.concurrency && !backlog.length && flow.running < hardCap()) {
          ticket.onTurn = onTurn;
          start(ticket);
          report.state(waiting, running);
          return;
        }
        if (waiting >= current.queue) {
          becameIdle(flow);
          ticket.state = "done";
          flow.pending -= 1;
          report.rejected("queue_full", flow.kind);
          onRefused(refusal(429, "queue_full", "The server is busy (queue full); retry later", estimate(waiting + 1, serviceMs, current.concurrency)));
          return;
        }
        ticket.state = "waiting";
        ticket.onTurn = onTurn;
        ticket.onRefused = onRefused;
        if (!flow.queue.length) backlog.push(flow);
        flow.queue.push(ticket);
        waiting += 1;
        ticket.timer = setTimeout(() => {
          if (ticket.state !== "waiting") return;
          const refused = ticket.onRefused;
          leaveQueue(ticket);
          report.rejected("timeout", flow.kind);
          refused(refusal(429, "timeout", "The server is busy (waited too long for a turn); retry later", estimate(waiting + 1, serviceMs, current.concurrency)));
        }, current.maxWaitMs);
        // a slot may be free, held back for another caller
        dispatch();
      },
      /**
       * The request is over: served (its slot passes on), refused, or its caller left — from any
       * state; a waiting request whose caller left counts as `abandoned`. Idempotent.
       */
      end() {
        if (ticket.state === "done") return;
        if (ticket.state === "waiting") {
          leaveQueue(ticket);
          report.rejected("abandoned", flow.kind);
          report.state(waiting, running);
          return;
        }
        if (ticket.state === "pending") {
          flow.pending -= 1;
          ticket.state = "done";
          return;
        }
        ticket.state = "done";
        const took = now() - ticket.startedAt;
        serviceMs = serviceMs * 0.9 + took * 0.1;
        flow.serviceMs = flow.serviceMs * 0.8 + took * 0.2;
        // the flow was charged its estimate at the start: what the request really took counts
        flow.vtime += took - ticket.charged;
        flow.running -= 1;
        running -= 1;
        becameIdle(flow);
        dispatch();
      },
    };
    return ticket;
  }

  function leaveQueue(ticket) {
    const flow = ticket.flow;
    clearTimeout(ticket.timer);
    const i = flow.queue.indexOf(ticket);
    if (i >= 0) flow.queue.splice(i, 1);
    if (!flow.queue.length) {
      const b = backlog.indexOf(flow);
      if (b >= 0) backlog.splice(b, 1);
    }
    waiting -= 1;
    flow.pending -= 1;
    ticket.state = "done";
    ticket.onTurn = ticket.onRefused = null;
    becameIdle(flow);
  }

  return {
    /**
     * A request has arrived from `caller` ({ key, kind } from `callerOf`). Takes one request from the
     * caller's rate and counts it against the caller's cap on waiting requests until it runs. The
     * ticket's `refusal` is set when the caller is over either limit: answer it (nothing else to do).
     */
    arrive(caller) {
      const at = now();
      current = settings();
      report.limits(current.concurrency, current.queue);
      sweep(at);
      const flow = flowOf(caller, at);
      const limits = limitsOf(flow);
      refill(flow, limits, at);
      const ticket = makeTicket(flow, at);
      if (flow.tokens < 1) {
        ticket.state = "done";
        const wait = Math.max(1, Math.ceil((1 - flow.tokens) / limits.rate));
        report.rejected("rate_limited", flow.kind);
        ticket.refusal = refusal(429, "rate_limited", `Too many requests from this caller (more than ${limits.rate} per second after a burst of ${limits.burst}); retry later`, wait, {
          ratelimit: `"rate";r=0;t=${wait}`,
          "ratelimit-policy": policyField(limits),
        });
        return ticket;
      }
      if (flow.pending >= limits.queue) {
        ticket.state = "done";
        const wait = estimate(flow.queue.length + 1, flow.serviceMs, Math.min(hardCap(), fairShare()));
        report.rejected("caller_queue_full", flow.kind);
        ticket.refusal = refusal(429, "caller_queue_full", `Too many requests from this caller waiting (at most ${limits.queue}); retry later`, wait, {
          ratelimit: `"waiting";r=0;t=${wait}`,
          "ratelimit-policy": policyField(limits),
        });
        return ticket;
      }
      flow.tokens -= 1;
      flow.pending += 1;
      return ticket;
    },

    /**
     * The limits an HQ admin set for the agent whose key gives `key` (`bearerCallerKey`), as read when
     * the key was verified: `{ rate, burst, queue }` (each null for the default), or null for none.
     */
    setCallerLimits(key, limits) {
      if (!limits || (limits.rate == null && limits.burst == null && limits.queue == null)) overrides.delete(key);
      else overrides.set(key, { limits, at: now() });
    },

    get running() {
      return running;
    },
    get waiting() {
      return waiting;
    },

    /** Shutdown: refuses every request still waiting with 503 (they never started: nothing was done). */
    refuseWaiting() {
      for (const flow of [...backlog]) {
        for (const ticket of [...flow.queue]) {
          const refused = ticket.onRefused;
          leaveQueue(ticket);
          refused(refusal(503, null, "The server is shutting down; retry (another instance, or this one once restarted)", 1));
        }
      }
      report.state(waiting, running);
    },
  };
}
