import { z } from "zod";

const slug = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "use lowercase letters, digits and single dashes")
  .max(60);

const triggerTerms = z.array(z.string().trim().min(2).max(60)).max(100);

export const createClientBody = z
  .object({ name: z.string().trim().min(1).max(200), slug: slug.optional(), triggerTerms: triggerTerms.optional() })
  .strict();

export const updateClientBody = z
  .object({ name: z.string().trim().min(1).max(200).optional(), triggerTerms: triggerTerms.optional() })
  .strict();

export function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "client"
  );
}
