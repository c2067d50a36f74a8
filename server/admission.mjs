// Admission control at accept (server.mjs): every API request takes its turn in one first-come-
// first-served queue the moment it arrives, before Next.js parses it, authenticates or touches the
// database. At most `concurrency` requests run at once; once `queue` wait, a newcomer is refused with
// 429 and a Retry-After from the recent service time; a request that waited `maxWaitMs` is refused the
// same way; a caller that disconnects while waiting leaves the queue. The limits and metrics are the
// app's (ADMISSION_* settings, mhq_admission_* and mhq_http_* series), reached through its bridge (lib/http/server-bridge.ts).

import { UNMATCHED_ROUTE } from "./seam.mjs";

/** A queue bound to the app's bridge. */
export function createAdmission(bridge) {
  let running = 0;
  const queue = [];
  let serviceMs = 50;
  const limits = bridge.admission();
  bridge.admissionLimits(limits.concurrency, limits.queue);
  const report = () => bridge.admissionState(queue.length, running);
  const retryAfter = () => Math.max(1, Math.ceil(((queue.length + 1) * serviceMs) / limits.concurrency / 1000));

  function start(entry) {
    running += 1;
    report();
    const started = performance.now();
    bridge.admissionWaited((started - entry.arrived) / 1000);
    let done = false;
    // the slot is free once the answer's head is written (a streamed body may take longer) or the
    // connection is gone
    const release = () => {
      if (done) return;
      done = true;
      serviceMs = serviceMs * 0.9 + (performance.now() - started) * 0.1;
      running -= 1;
      next();
    };
    entry.onHead(release);
    entry.res.once("close", release);
    entry.serve((started - entry.arrived).toFixed(1));
  }

  function next() {
    while (running < limits.concurrency && queue.length) {
      const entry = queue.shift();
      clearTimeout(entry.timer);
      start(entry);
    }
    report();
  }

  function refuse(entry, status, reason, message) {
    const res = entry.res;
    if (!res.headersSent && !res.destroyed) {
      const body = JSON.stringify(bridge.errorBody(status === 429 ? "rate_limited" : "service_unavailable", message));
      res.writeHead(status, { "content-type": "application/json", "retry-after": String(retryAfter()), ...(entry.close ? { connection: "close" } : {}) });
      res.end(body);
    }
    bridge.recordHttpRequest(bridge.routeTemplate(entry.pathname) ?? UNMATCHED_ROUTE, entry.method, status, (performance.now() - entry.arrived) / 1000);
    if (reason) bridge.admissionRejected(reason);
  }

  return {
    /**
     * Serves `entry` ({ req, res, pathname, method, arrived, serve(queueMs), onHead(fn) }) at its turn.
     */
    admit(entry) {
      if (running < limits.concurrency && queue.length === 0) return start(entry);
      if (queue.length >= limits.queue) return refuse(entry, 429, "queue_full", "The server is busy (queue full); retry later");
      queue.push(entry);
      report();
      const leave = (reason) => {
        const i = queue.indexOf(entry);
        if (i < 0) return false;
        queue.splice(i, 1);
        clearTimeout(entry.timer);
        report();
        if (reason === "abandoned") bridge.admissionRejected("abandoned");
        return true;
      };
      entry.timer = setTimeout(() => {
        if (leave()) refuse(entry, 429, "timeout", "The server is busy (waited too long for a turn); retry later");
      }, limits.maxWaitMs);
      entry.res.once("close", () => leave("abandoned"));
    },
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
    /** Shutdown: answers every request still waiting 503 (they never started: nothing was done). */
    refuseWaiting() {
      for (const entry of queue.splice(0)) {
        clearTimeout(entry.timer);
        entry.close = true;
        refuse(entry, 503, null, "The server is shutting down; retry (another instance, or this one once restarted)");
      }
      report();
    },
  };
}
