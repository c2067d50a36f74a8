import { z } from "zod";

export const searchQuery = z
  .object({
    q: z.string().trim().min(1).max(200).describe("words in a name or title (at least one character)"),
    limit: z.coerce.number().int().min(1).max(20).default(5).describe("most results of each kind"),
  })
  .strict();
