import { z } from "zod";
import { apiViews, defineContract, textParam, timestamp } from "@/lib/http/contract";
import { constantCategory, putConstantBody } from "./schemas";

export const lockedConstantView = z
  .object({
    id: z.uuid(),
    key: z.string(),
    label: z.string(),
    value: z.string(),
    category: constantCategory,
    description: z.string(),
    updatedByName: z.string(),
    updatedAt: timestamp,
  })
  .strict().meta({ description: "A fact no agent may contradict." }).register(apiViews, { id: "LockedConstant" });

const keyParams = z.object({ key: textParam }).strict();

export const lockedConstantContracts = {
  list: defineContract({
    id: "constants.list",
    method: "GET", path: "/api/v1/locked-constants", permission: "constants.read",
    summary: "Prices, guarantees, compliance rules, escalation numbers, booking links: no agent can change them",
    response: z.object({ constants: z.array(lockedConstantView) }).strict(),
  }),
  put: defineContract({
    id: "constants.put",
    method: "PUT", path: "/api/v1/locked-constants/{key}", permission: "constants.write", summary: "Create or change a locked constant (HQ admin)",
    params: keyParams, body: putConstantBody,
    response: z.object({ constant: lockedConstantView, created: z.boolean() }).strict(),
  }),
  remove: defineContract({
    id: "constants.remove",
    method: "DELETE", path: "/api/v1/locked-constants/{key}", permission: "constants.write", summary: "Delete a locked constant (HQ admin)",
    params: keyParams, response: z.object({ key: z.string(), deleted: z.literal(true) }).strict(),
  }),
};
