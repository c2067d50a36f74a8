import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { ApiError } from "@/lib/http/errors";
import { processWide } from "@/lib/process-wide";
import { SERVER_STOPPING } from "@/server/seam.mjs";
import { interactiveRequestStarted } from "./activity";
import type { Queryable } from "./types";

// The request a piece of database work is done for, so that work stops when its caller disconnects:
// the route wrapper runs each handler inside `forRequest(req.signal, …)`, and every transaction
// opened meanwhile checks the signal before each statement and before it commits. A client that
// leaves mid-request therefore has its unfinished transaction rolled back (never committed behind
// its back), and its admission slot is free as soon as the statement in progress ends. The server
// stops a handler the same way when it must end before its shutdown deadline; that caller is still
// there, and is told to send the request again.

/** Thrown into the handler's database work once its caller has disconnected. */
export class RequestAbandonedError extends Error {
  constructor() {
    super("The client disconnected; its unfinished transaction was rolled back");
    this.name = "RequestAbandonedError";
  }
}

interface RequestScope {
  signal: AbortSignal;
  /** false once the handler has answered: work it left behind (a timer it set) is no longer the request's */
  open: boolean;
  /** ends the request's count as interactive work (lib/db/activity.ts): when it answers, or at its first bulk step */
  interactiveEnded: () => void;
}

// one store for every copy of this module (Next.js bundles each route on its own)
const scope = processWide("requestScope", () => new AsyncLocalStorage<RequestScope>());

/** Runs `fn` with `signal` as its request's: database work it starts stops once the signal aborts. */
export async function forRequest<T>(signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
  if (!signal) return fn();
  const request: RequestScope = { signal, open: true, interactiveEnded: interactiveRequestStarted() };
  try {
    return await scope.run(request, fn);
  } finally {
    request.open = false;
    request.interactiveEnded();
  }
}

/** The current request (if any) does bulk work from now on: bulk steps no longer wait for it, its own included. */
export function requestTurnsBulk() {
  scope.getStore()?.interactiveEnded();
}

/** Thrown into the handler's database work when the server, shutting down, cannot wait for it to finish. */
export class ServerStoppedRequestError extends ApiError {
  constructor() {
    super("service_unavailable", "The server is shutting down and stopped this request: what it had not committed was rolled back; send it again");
    this.name = "ServerStoppedRequestError";
  }
}

function check(signal: AbortSignal) {
  if (signal.aborted) throw signal.reason === SERVER_STOPPING ? new ServerStoppedRequestError() : new RequestAbandonedError();
}

/**
 * `fn` as a transaction body bound to the current request, if any: each statement and the commit
 * first check that its caller is still there (a throw rolls the transaction back).
 */
export function boundToRequest<T>(fn: (tx: Queryable) => Promise<T>): (tx: Queryable) => Promise<T> {
  const request = scope.getStore();
  if (!request?.open) return fn;
  const signal = request.signal;
  return async (tx) => {
    check(signal);
    const result = await fn({
      query: (text, params) => (check(signal), tx.query(text, params)),
      exec: (text) => (check(signal), tx.exec(text)),
    });
    check(signal); // about to commit: a caller gone by now gets nothing committed
    return result;
  };
}

/**
 * Runs `fn` outside any request's scope: clean-up a request sets off (giving up a batch its caller
 * left, the janitor) must finish even though that caller is gone.
 */
export function outsideRequest<T>(fn: () => T): T {
  return scope.exit(fn);
}
