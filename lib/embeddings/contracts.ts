import { z } from "zod";
import { defineContract } from "@/lib/http/contract";
import { runBackfillBody } from "./schemas";

const targets = z.array(z.object({ table: z.string(), remaining: z.number().int() }).strict());

export const backfillStatusView = z
  .object({ provider: z.string(), model: z.string(), remaining: z.number().int(), targets })
  .strict();

export const backfillReportView = z
  .object({ embedded: z.number().int(), remaining: z.number().int(), targets, error: z.string().optional() })
  .strict();

export const embeddingContracts = {
  status: defineContract({
    id: "embeddings.status",
    method: "GET", path: "/api/v1/embeddings/backfill", permission: "embeddings.manage",
    summary: "Rows queued for re-embedding, per table", response: backfillStatusView,
  }),
  run: defineContract({
    id: "embeddings.run",
    method: "POST", path: "/api/v1/embeddings/backfill", permission: "embeddings.manage",
    summary: "Re-embed up to `limit` queued rows; answers what remains", body: runBackfillBody, response: backfillReportView,
  }),
};
