import { z } from "zod";

export const agentKind = z.enum(["internal", "field"]);
export const agentRole = z.enum(["manager", "orchestrator", "specialist", "isolated"]);
export const kbAccess = z.enum(["read", "write"]);

export const createAgentBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    kind: agentKind,
    role: agentRole,
    kbAccess: kbAccess.optional(),
    clientId: z.uuid().optional(),
    description: z.string().max(2000).optional(),
  })
  .strict()
  .superRefine((a, ctx) => {
    if (a.kind === "field" && !a.clientId) {
      ctx.addIssue({ code: "custom", path: ["clientId"], message: "field agents require clientId" });
    }
    if (a.kind === "internal" && a.clientId) {
      ctx.addIssue({ code: "custom", path: ["clientId"], message: "internal agents belong to no client" });
    }
    if (a.kind === "field" && a.kbAccess === "write") {
      ctx.addIssue({ code: "custom", path: ["kbAccess"], message: "field agents can never write the knowledge base" });
    }
  });

/** An agent's own request limits: a number sets one, null returns it to the server's default, an omitted one stays. */
export const agentLimitsBody = z
  .object({
    requestsPerSecond: z.number().int().min(1).max(100_000).nullable().optional()
      .describe("requests per second the agent may send after its burst; null: the default (ADMISSION_CALLER_RATE)"),
    burst: z.number().int().min(1).max(1_000_000).nullable().optional()
      .describe("requests it may send at once above that rate; null: the default (ADMISSION_CALLER_BURST)"),
    maxWaiting: z.number().int().min(1).max(100_000).nullable().optional()
      .describe("its requests that may wait for a turn at once, beyond which it gets 429; null: the default (ADMISSION_CALLER_QUEUE)"),
  })
  .strict()
  .meta({ description: "Raise an importer's limits, or lower a noisy agent's. HQ admins only." });

export const updateAgentBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    role: agentRole.optional(),
    kbAccess: kbAccess.optional(),
    description: z.string().max(2000).optional(),
    disabled: z.boolean().optional(),
    limits: agentLimitsBody.optional(),
  })
  .strict();

export const createKeyBody = z.object({ label: z.string().trim().max(100).optional() }).strict();
