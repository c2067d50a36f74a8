import { agentLogContracts } from "@/lib/agent-log/contracts";
import { agentContracts } from "@/lib/agents/contracts";
import { auditContracts } from "@/lib/audit/contracts";
import { backupContracts } from "@/lib/backup/contracts";
import { authContracts } from "@/lib/auth/contracts";
import { clientContracts } from "@/lib/clients/contracts";
import { documentContracts } from "@/lib/documents/contracts";
import { embeddingContracts } from "@/lib/embeddings/contracts";
import type { AnyContract } from "@/lib/http/contract";
import { systemContracts } from "@/lib/http/system-contracts";
import { knowledgeContracts } from "@/lib/knowledge/contracts";
import { lifecycleContracts } from "@/lib/lifecycle/contracts";
import { lockedConstantContracts } from "@/lib/locked-constants/contracts";
import { memoryContracts } from "@/lib/memories/contracts";
import { missionContracts } from "@/lib/missions/contracts";
import { retrievalContracts } from "@/lib/retrieval/contracts";
import { reviewContracts } from "@/lib/review/contracts";
import { searchContracts } from "@/lib/search/contracts";

/**
 * Every endpoint's contract, by domain. The OpenAPI document, the TypeScript client and the console
 * read this; a unit test checks it names every route file and method.
 */
export const api = {
  system: systemContracts,
  auth: authContracts,
  clients: clientContracts,
  agents: agentContracts,
  missions: missionContracts,
  constants: lockedConstantContracts,
  audit: auditContracts,
  documents: documentContracts,
  memories: memoryContracts,
  embeddings: embeddingContracts,
  review: reviewContracts,
  agentLog: agentLogContracts,
  retrieval: retrievalContracts,
  knowledge: knowledgeContracts,
  lifecycle: lifecycleContracts,
  backup: backupContracts,
  search: searchContracts,
} as const;

export const ALL_CONTRACTS: AnyContract[] = Object.values(api).flatMap((domain) => Object.values(domain) as AnyContract[]);
