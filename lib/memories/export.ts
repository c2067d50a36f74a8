import "server-only";
import { strToU8, zipSync } from "fflate";
import { resolveAgentId } from "@/lib/agents/service";
import type { Caller } from "@/lib/auth/caller";
import { asCaller } from "@/lib/db";
import { listDocuments } from "@/lib/documents/queries";
import { requireOwnAgent } from "./access";
import { buildMemoryFolder } from "./export-layout";
import { listForExport } from "./queries";

/** The agent's memory as the `memory/` folder, zipped (archived memories left out). */
export async function exportAgentMemory(caller: Caller, agentIdParam: string | undefined) {
  const agentId = resolveAgentId(caller, agentIdParam);
  const { agent, docs, memories } = await asCaller(caller, async (tx) => ({
    agent: await requireOwnAgent(tx, caller, agentId),
    docs: await listDocuments(tx, { agentId }),
    memories: await listForExport(tx, { agentId }),
  }));
  const files = buildMemoryFolder({
    agent,
    soul: docs.find((d) => d.type === "soul")?.content ?? "",
    working: docs.find((d) => d.type === "working")?.content ?? "",
    daily: docs.filter((d) => d.type === "daily").map((d) => ({ date: d.date!, content: d.content })),
    memories,
    exportedAt: new Date(),
  });
  const zip = zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, strToU8(text)])), { level: 6 });
  const slug = agent.name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "agent";
  return { filename: `${slug}-memory.zip`, zip };
}
