import "server-only";
import type { z } from "zod";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { asCaller } from "@/lib/db";
import { notFound } from "@/lib/http/errors";
import * as q from "./queries";
import { constantKey, type putConstantBody } from "./schemas";

export async function listLockedConstants(caller: Caller) {
  return { constants: await asCaller(caller, (tx) => q.listLockedConstants(tx)) };
}

/** Creates or replaces a locked constant. Only HQ admins get here (permission table and RLS). */
export async function putLockedConstant(caller: Caller, keyParam: string | undefined, body: z.infer<typeof putConstantBody>) {
  const key = parseKey(keyParam);
  return asCaller(caller, async (tx) => {
    const before = (await q.listLockedConstants(tx)).find((c) => c.key === key);
    const { inserted, ...constant } = await q.upsertLockedConstant(tx, {
      key,
      ...body,
      description: body.description ?? "",
      updatedByName: caller.name,
    });
    await recordAudit(tx, {
      action: inserted ? "locked_constant.create" : "locked_constant.update",
      targetType: "locked_constant",
      targetId: key,
      details: { from: before?.value ?? null, to: constant.value },
    });
    return { constant, created: inserted };
  });
}

export async function deleteLockedConstant(caller: Caller, keyParam: string | undefined) {
  const key = parseKey(keyParam);
  return asCaller(caller, async (tx) => {
    const id = await q.deleteLockedConstant(tx, { key });
    if (!id) throw notFound("Locked constant");
    await recordAudit(tx, { action: "locked_constant.delete", targetType: "locked_constant", targetId: key });
    return { key, deleted: true as const };
  });
}

function parseKey(value: string | undefined): string {
  const parsed = constantKey.safeParse(value);
  if (!parsed.success) throw notFound("Locked constant");
  return parsed.data;
}
