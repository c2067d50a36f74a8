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

export const updateAgentBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    role: agentRole.optional(),
    kbAccess: kbAccess.optional(),
    description: z.string().max(2000).optional(),
    disabled: z.boolean().optional(),
  })
  .strict();

export const createKeyBody = z.object({ label: z.string().trim().max(100).optional() }).strict();
