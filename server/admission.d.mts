export type CallerKind = "agent" | "hq_user" | "admin" | "anonymous";
export type RefusalReason = "queue_full" | "caller_queue_full" | "rate_limited" | "timeout" | "abandoned";

export declare const CALLER_KINDS: readonly CallerKind[];
export declare const REFUSAL_REASONS: readonly RefusalReason[];

export interface Caller {
  key: string;
  kind: CallerKind;
}

export declare function bearerCallerKey(token: string): string;
export declare function callerOf(request: { authorization?: string | null; cookie?: string | null; address?: string | null; adminKey?: string | null }): Caller;

/** Per-caller limits: requests per second, the burst above it, requests that may wait. */
export interface CallerLimits {
  rate: number;
  burst: number;
  queue: number;
}

export interface AdmissionSettings {
  concurrency: number;
  /** the most requests one caller may have running at once (besides half of `concurrency`) */
  callerConcurrency?: number;
  queue: number;
  maxWaitMs: number;
  caller: CallerLimits;
}

export interface Refusal {
  status: 429 | 503;
  reason: RefusalReason | null;
  code: "rate_limited" | "service_unavailable";
  message: string;
  retryAfter: number;
  headers: Record<string, string>;
}

export interface Ticket {
  readonly kind: CallerKind;
  /** set when the caller is over its rate or its cap of waiting requests */
  readonly refusal: Refusal | null;
  wait(onTurn: (queueMs: string) => void, onRefused: (refusal: Refusal) => void): void;
  end(): void;
}

export interface Admission {
  arrive(caller: Caller): Ticket;
  setCallerLimits(key: string, limits: { rate: number | null; burst: number | null; queue: number | null } | null): void;
  readonly running: number;
  readonly waiting: number;
  refuseWaiting(): void;
}

export declare function createAdmission(options: {
  settings: () => AdmissionSettings;
  hooks?: {
    state?: (waiting: number, running: number) => void;
    waited?: (kind: CallerKind, seconds: number) => void;
    rejected?: (reason: RefusalReason, kind: CallerKind) => void;
    limits?: (concurrency: number, queue: number) => void;
  };
  now?: () => number;
}): Admission;
