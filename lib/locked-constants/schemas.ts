import { z } from "zod";

export const constantCategory = z.enum(["pricing", "guarantee", "compliance", "escalation", "booking", "other"]);

export const constantKey = z
  .string()
  .regex(/^[a-z0-9]+([._-][a-z0-9]+)*$/, "use lowercase letters, digits, dots, dashes and underscores")
  .max(100);

export const putConstantBody = z
  .object({
    label: z.string().trim().min(1).max(200),
    value: z.string().trim().min(1).max(2000),
    category: constantCategory,
    description: z.string().max(2000).optional(),
  })
  .strict();
