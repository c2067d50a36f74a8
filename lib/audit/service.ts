import "server-only";
import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { asCaller } from "@/lib/db";
import { listAudit } from "./queries";
import type { listAuditQuery } from "./schemas";

export async function listAuditEntries(caller: Caller, query: z.infer<typeof listAuditQuery>) {
  return asCaller(caller, (tx) => listAudit(tx, query));
}
