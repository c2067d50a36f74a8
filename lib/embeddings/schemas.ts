import { z } from "zod";

/** One pass of the admin re-embed button: bounded so a request stays short; the console repeats it. */
export const runBackfillBody = z.object({ limit: z.number().int().min(1).max(5000).default(200) }).strict();
