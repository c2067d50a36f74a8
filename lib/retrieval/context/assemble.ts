import "server-only";
import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { asCaller } from "@/lib/db";
import { getBootDocuments } from "@/lib/documents/queries";
import { today } from "@/lib/documents/service";
import { getEmbeddingProvider, toVectorLiteral, tryEmbedQuery } from "@/lib/embeddings";
import { listLockedConstants } from "@/lib/locked-constants/queries";
import { countAccess } from "../usage/access-counts";
import { auditImpersonation, resolveAgentView } from "../agent-view";
import { blendMemories, SEED_BLEND } from "./blend";
import { briefingFor } from "./briefing";
import { formatLockedConstants, formatMemories, joinSections, type ContextSection } from "./format";
import { listRecentMemories } from "./queries";
import type { contextQuery } from "../schemas";
import { searchMemories } from "../search/queries";
import { MIN_SIMILARITY } from "../search/search-scopes";
import { insertRetrievalLog, type RetrievalLogEntry } from "../usage/log-queries";

/**
 * GET /agents/{agentId}/context: the system-prompt sections an agent loads before it
 * works on `topic` — SOUL, the scratchpad, the `═══ CURRENT SITUATION ═══` briefing, relevant
 * memories (3 by relevance to the topic + 2 by recency, deduplicated; pure recency without a topic
 * or when the embedding provider is unavailable) and the locked constants.
 */
export async function assembleContext(
  caller: Caller,
  agentIdParam: string | undefined,
  query: z.infer<typeof contextQuery>,
  opts: { now?: Date } = {},
) {
  const started = performance.now();
  const view = await resolveAgentView(caller, agentIdParam);
  const { agent } = view;
  const { briefing, cached } = await briefingFor(view, opts);
  const topic = query.topic?.trim() ?? "";
  const vector = topic ? await tryEmbedQuery(topic) : null;
  const embedding = vector ? toVectorLiteral(vector) : null;

  const { docs, memories, constants } = await view.run(async (tx) => {
    const docs = await getBootDocuments(tx, { agentId: agent.agentId, date: today() });
    const relevant = embedding
      ? await searchMemories(tx, {
          text: topic,
          embedding,
          model: getEmbeddingProvider().model,
          limit: SEED_BLEND.relevance,
          minSimilarity: MIN_SIMILARITY,
          scope: "agent",
          ownerId: agent.agentId,
          asOf: opts.now,
        })
      : [];
    const recent = await listRecentMemories(tx, {
      agentId: agent.agentId,
      limit: SEED_BLEND.relevance + SEED_BLEND.recency,
      asOf: opts.now,
    });
    const memories = blendMemories(relevant, recent);
    // only what was served to the agent itself counts (not HQ's playground)
    if (!view.hq) await countAccess(tx, { memories: memories.map((m) => m.memory.id) });
    return { docs, memories, constants: await listLockedConstants(tx) };
  });

  const content = (type: "soul" | "working") => docs.find((d) => d.type === type)?.content ?? "";
  const sections: ContextSection[] = [
    { key: "soul", title: "SOUL", content: content("soul") },
    { key: "scratchpad", title: "SCRATCHPAD", content: content("working") },
    { key: "situation", title: "CURRENT SITUATION", content: briefing.text },
    { key: "memories", title: "RELEVANT MEMORIES", content: formatMemories(memories.map((m) => m.memory)) },
    { key: "constants", title: "LOCKED CONSTANTS", content: formatLockedConstants(constants) },
  ];
  const tookMs = Math.round((performance.now() - started) * 100) / 100;

  const entry: RetrievalLogEntry = {
    agentId: agent.agentId,
    clientId: agent.clientId,
    endpoint: "context",
    callerType: view.hq ? "hq" : "agent",
    level: null,
    explicitScopes: false,
    scopes: ["memories"],
    triggerKinds: [],
    items: memories.map((m) => ({ source: "memories", id: m.memory.id })),
    tookMs,
    messageChars: topic.length,
  };
  if (view.hq) {
    await asCaller(view.hq, async (tx) => {
      await insertRetrievalLog(tx, entry);
      await auditImpersonation(tx, view, "context");
    });
  } else {
    await asCaller(agent, (tx) => insertRetrievalLog(tx, entry));
  }

  return {
    agentId: agent.agentId,
    topic: topic || null,
    sections,
    text: joinSections(sections),
    memories: memories.map((m) => ({
      id: m.memory.id,
      tier: m.memory.tier,
      category: m.memory.category,
      title: m.memory.title,
      reason: m.reason,
    })),
    // "recency" alone when there was no topic or no embedding to rank by
    memorySelection: embedding ? ("relevance+recency" as const) : ("recency" as const),
    briefing: { generatedAt: briefing.generatedAt, cached },
    tookMs,
  };
}
