import type { Caller } from "@/lib/auth/caller";
import { getEmbeddingProvider } from "@/lib/embeddings";
import type { Lane } from "./lanes";
import type { Database, Queryable } from "./types";

/** The claims Postgres policies read through the mhq.* helper functions (see the foundation migration). */
export function claimsFor(caller: Caller): Record<string, string | null> {
  if (caller.type === "agent") {
    return {
      caller_type: "agent",
      name: caller.name,
      agent_id: caller.agentId,
      agent_kind: caller.kind,
      agent_role: caller.role,
      client_id: caller.clientId,
      kb_access: caller.kbAccess,
    };
  }
  return {
    caller_type: "hq",
    name: caller.name,
    hq_role: caller.role,
    hq_user_id: caller.userId,
  };
}

/** The configured model's name; "" (no vectors compared or tagged) when the provider is misconfigured. */
function embeddingModel(): string {
  try {
    return getEmbeddingProvider().model;
  } catch {
    return "";
  }
}

/**
 * Runs `fn` in one transaction as the caller: the local role mhq_app drops superuser/owner
 * rights, and the caller's claims are set for RLS. Both are transaction-local, so a pooled
 * connection never carries one caller's identity into another's request.
 */
export async function withClaims<T>(
  db: Database,
  claims: Record<string, unknown>,
  fn: (tx: Queryable) => Promise<T>,
  lane?: Lane,
): Promise<T> {
  // one statement, sent with BEGIN: the claims, the model of the vectors this transaction writes (the
  // embedded tables record it; searches name the model they compare explicitly), and the role
  // (set_config('role', …, true) is `set local role`)
  return db.transaction(fn, {
    first: {
      text: "select set_config('request.jwt.claims', $1, true), set_config('mhq.embedding_model', $2, true), set_config('role', 'mhq_app', true)",
      params: [JSON.stringify(claims), embeddingModel()],
    },
    ...(lane ? { lane } : {}),
  });
}
