import { z } from "zod";
import { RETRIEVAL_SCOPES } from "./search/scopes";

/** An agent's id, or `me`. HQ callers name the agent they act as; agents may name only themselves. */
const agentRef = z.union([z.uuid(), z.literal("me")]);
const message = z.string().trim().min(1, "message is empty").max(8000, "message is limited to 8000 characters");

export const retrievalScope = z.enum(RETRIEVAL_SCOPES);

export const triggerBody = z
  .object({
    message,
    agentId: agentRef.optional(),
  })
  .strict();

export const retrieveBody = z
  .object({
    message,
    agentId: agentRef.optional(),
    limit: z.number().int().min(1).max(50).optional().describe("how many items to return across every scope (default 10)"),
    scopes: z.array(retrievalScope).min(1).max(RETRIEVAL_SCOPES.length).optional().describe("search exactly these scopes and skip the smart trigger"),
  })
  .strict();

export const contextQuery = z
  .object({
    topic: z.string().trim().max(2000).optional().describe("what the agent is about to work on: picks the three most relevant memories"),
  })
  .strict();

export const briefingQuery = z.object({}).strict();

export const retrievalStatsQuery = z
  .object({
    days: z.coerce.number().int().min(1).max(90).default(14).describe("how many days back the charts reach"),
  })
  .strict();
