import type { Database, Queryable } from "@/lib/db/types";
import { seedAgentMemoryDemo } from "./agent-memory";
import { seedContactsDemo } from "./contacts";
import { seedKnowledgeDemo } from "./knowledge";

// The demo of the seeds: BJS Labs' internal agents, one SMB client with its field agent, and the
// locked constants. Loaded once, into an empty database, on first start.

const CLIENT = {
  name: "Sunrise Plumbing",
  slug: "sunrise-plumbing",
  triggerTerms: ["Sunrise", "water heater", "drain cleaning", "service call"],
};

const AGENTS = [
  { name: "Sybil", kind: "internal", role: "manager", kbAccess: "write", description: "Research and strategy lead; curates procedures and the memory architecture." },
  { name: "Saber", kind: "internal", role: "specialist", kbAccess: "write", description: "Investing agent; logs trade decisions and their outcomes." },
  { name: "Sam", kind: "internal", role: "specialist", kbAccess: "write", description: "Customer-success agent; resolves field escalations and writes reusable fixes to the knowledge base." },
  { name: "Sage", kind: "internal", role: "orchestrator", kbAccess: "read", description: "Architecture and documentation agent." },
  { name: "Santos", kind: "field", role: "orchestrator", kbAccess: "read", description: "Field agent deployed to Sunrise Plumbing." },
] as const;

export const DEMO_LOCKED_CONSTANTS = [
  { key: "pricing.starter", label: "Starter plan price", value: "$997", category: "pricing" },
  { key: "pricing.growth", label: "Growth plan price", value: "$1997", category: "pricing" },
  { key: "pricing.scale", label: "Scale plan price", value: "$4997", category: "pricing" },
  { key: "guarantee.30-day", label: "30-day guarantee", value: "30-day money-back guarantee", category: "guarantee" },
  { key: "guarantee.results", label: "Results guarantee", value: "Results guarantee: we keep working at no charge until the agreed results are met", category: "guarantee" },
  { key: "guarantee.refund", label: "Refund policy", value: "Full refund within the guarantee period, no questions asked", category: "guarantee" },
  { key: "compliance.tcpa", label: "TCPA", value: "Text or call only contacts who gave express written consent; honour STOP at once", category: "compliance" },
  { key: "compliance.can-spam", label: "CAN-SPAM", value: "Every email carries the sender's address and a working unsubscribe link", category: "compliance" },
  { key: "escalation.phone", label: "Escalation number", value: "(863) 337-3705", category: "escalation" },
  { key: "booking.discovery", label: "Discovery call booking link", value: "link.aiserviceco.com/discovery", category: "booking" },
] as const;

const MISSIONS = [
  { title: "Deploy Santos to Sunrise Plumbing", status: "active", summary: "Field agent live on SMS and email; knowledge base seeded.", client: true },
  { title: "Shared knowledge base rollout", status: "active", summary: "Move team decisions, corrections and principles into shared memory.", client: false },
  { title: "Funding-rate signal backtest", status: "planned", summary: "Saber validates the BTC funding-rate short signal before live use.", client: false },
] as const;

const SEEDED_FLAG = "demo_seeded";

export async function seedDemoIfEmpty(db: Database): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock(727276)");
    const flag = await tx.query("select 1 from mhq.settings where key = $1", [SEEDED_FLAG]);
    if (flag.length) return false;
    const used = await tx.query<{ n: number }>("select (select count(*) from agents) + (select count(*) from clients) as n");
    // the demo's vectors come from the local embedder (see seedAgentMemoryDemo) and record its model
    const { getEmbeddingProvider } = await import("@/lib/embeddings");
    await tx.query("select set_config('mhq.embedding_model', $1, true)", [getEmbeddingProvider().model]);
    if (Number(used[0]!.n) === 0) await seedDemo(tx);
    await tx.query("insert into mhq.settings (key, value) values ($1, $2::jsonb)", [SEEDED_FLAG, JSON.stringify({ at: new Date().toISOString() })]);
    return Number(used[0]!.n) === 0;
  });
}

export async function seedDemo(tx: Queryable): Promise<void> {
  const [client] = await tx.query<{ id: string }>(
    "insert into clients (name, slug, trigger_terms) values ($1, $2, $3) returning id",
    [CLIENT.name, CLIENT.slug, CLIENT.triggerTerms],
  );
  for (const a of AGENTS) {
    await tx.query(
      "insert into agents (name, kind, role, kb_access, client_id, description) values ($1, $2, $3, $4, $5, $6)",
      [a.name, a.kind, a.role, a.kbAccess, a.kind === "field" ? client!.id : null, a.description],
    );
  }
  for (const c of DEMO_LOCKED_CONSTANTS) {
    await tx.query(
      "insert into locked_constants (key, label, value, category, updated_by_name) values ($1, $2, $3, $4, 'demo')",
      [c.key, c.label, c.value, c.category],
    );
  }
  for (const m of MISSIONS) {
    await tx.query(
      "insert into missions (title, status, summary, client_id, created_by_name) values ($1, $2, $3, $4, 'demo')",
      [m.title, m.status, m.summary, m.client ? client!.id : null],
    );
  }
  await seedContactsDemo(tx, { clientId: client!.id });
  await seedAgentMemoryDemo(tx);
  await seedKnowledgeDemo(tx);
  await tx.query("select mhq.audit('demo.seed', 'system', null, $1::jsonb)", [
    JSON.stringify({ agents: AGENTS.length, constants: DEMO_LOCKED_CONSTANTS.length }),
  ]);
}
