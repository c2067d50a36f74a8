import { processWide } from "@/lib/process-wide";

/**
 * API requests in progress in this process that are interactive work: counted from the moment the
 * route wrapper starts a handler until it answers, except a request that does bulk work itself (an
 * import: it is bulk work from its first bulk step on). On the embedded database, whose one
 * connection a request uses statement by statement, a bulk step waits until none is in progress —
 * otherwise a request that makes several round trips would wait behind a step at each of them.
 */
const activity = processWide("requestActivity", () => ({ interactive: 0, idle: new Set<() => void>() }));

/** Interactive requests in progress now. */
export function interactiveRequests(): number {
  return activity.interactive;
}

/** An interactive request began; the returned function ends it (once). */
export function interactiveRequestStarted(): () => void {
  activity.interactive++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    activity.interactive--;
    if (activity.interactive === 0) for (const wake of [...activity.idle]) wake();
  };
}

/** Calls `wake` each time the last interactive request in progress ends, until the returned function is called. */
export function onNoInteractiveRequest(wake: () => void): () => void {
  activity.idle.add(wake);
  return () => activity.idle.delete(wake);
}
