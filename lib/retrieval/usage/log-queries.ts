import "server-only";
import type { Queryable } from "@/lib/db";

// SQL of the retrieval log (retrieval_log): every retrieve and context call, for the Dashboard.

export interface RetrievalLogEntry {
  agentId: string;
  clientId: string | null;
  endpoint: "retrieve" | "context";
  callerType: "agent" | "hq";
  level: string | null;
  explicitScopes: boolean;
  scopes: string[];
  triggerKinds: string[];
  items: { source: string; id: string }[];
  tookMs: number;
  messageChars: number;
  /** "shared": the agent's own scopes found nothing and the team's shared memory was searched */
  fallback?: "shared" | null;
}

/** Without RETURNING: agents write the log but may not read it (RLS). */
export async function insertRetrievalLog(tx: Queryable, e: RetrievalLogEntry) {
  // one insert into retrieval_log, through a function that keeps its plan
  await tx.query(`select mhq.log_retrieval($1, $2, $3, $4, $5, $6, $7::text[], $8::text[], $9::text::jsonb, $10, $11, $12)`, [
    e.agentId, e.clientId, e.endpoint, e.callerType, e.level, e.explicitScopes, e.scopes, e.triggerKinds,
    JSON.stringify(e.items), e.tookMs, e.messageChars, e.fallback ?? null,
  ]);
}
