/** The retrieval endpoints' shapes as the browser receives them: derived from the endpoints' contracts. */
import type { z } from "zod";
import type {
  assembledContextView,
  contextSectionView,
  retrievalLevel,
  retrievalStatsView,
  retrievedItemView,
  retrieveResultView,
  triggerView,
} from "@/lib/retrieval/contracts";

export { RETRIEVAL_SCOPES, type RetrievalScope } from "@/lib/retrieval/search/scopes";
export type RetrievalLevel = z.infer<typeof retrievalLevel>;
export type Trigger = z.input<typeof triggerView>;
export type RetrievedItem = z.input<typeof retrievedItemView>;
export type RetrieveResult = z.input<typeof retrieveResultView>;
export type ContextSection = z.input<typeof contextSectionView>;
export type AssembledContext = z.input<typeof assembledContextView>;
export type RetrievalStats = z.input<typeof retrievalStatsView>;
export type LevelCounts = Pick<RetrievalStats["perDay"][number], "none" | "local" | "shared" | "hq">;
