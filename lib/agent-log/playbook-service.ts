import "server-only";
import type { z } from "zod";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { asCaller } from "@/lib/db";
import { ApiError, notFound } from "@/lib/http/errors";
import { listLockedConstants } from "@/lib/locked-constants/queries";
import { valueContradictsConstant } from "@/lib/review/locked-constant-conflicts";
import * as q from "./queries";
import type { createPlaybookUpdateBody, listPlaybookUpdatesQuery, reviewPlaybookUpdateBody } from "./schemas";
import { refuseIdentifiers } from "@/lib/review/refusals";
import { resolveAgentWriteScope } from "./scope";

/**
 * A script improvement idea (the safe zones agents may improve on their own: follow-up wording, objection
 * responses, KB gaps, routing thresholds). Ideas that would change a locked constant — a different
 * price, guarantee, booking link or escalation number — are refused: agents cannot self-edit those.
 */
export async function createPlaybookUpdate(caller: Caller, body: z.infer<typeof createPlaybookUpdateBody>) {
  refuseIdentifiers({ title: body.title, content: body.content });
  return asCaller(caller, async (tx) => {
    const constants = await listLockedConstants(tx);
    const text = `${body.title}\n${body.content}`;
    const touched = constants.filter((c) => valueContradictsConstant(text, c, constants));
    if (touched.length) {
      throw new ApiError(
        "locked_constant",
        `This would change locked constants (${touched.map((c) => c.label).join(", ")}); only HQ admins change them, in the console`,
        { lockedConstants: touched.map((c) => c.key) },
      );
    }
    const scope = await resolveAgentWriteScope(tx, caller, body);
    const update = await q.insertPlaybookUpdate(tx, { agentId: scope.agentId, clientId: scope.clientId, area: body.area, title: body.title, content: body.content });
    await recordAudit(tx, { action: "playbook_update.create", targetType: "playbook_update", targetId: update.id, clientId: scope.clientId, details: { area: body.area, title: body.title } });
    return { update };
  });
}

export async function listPlaybookUpdates(caller: Caller, query: z.infer<typeof listPlaybookUpdatesQuery>) {
  return { updates: await asCaller(caller, (tx) => q.listPlaybookUpdates(tx, query)) };
}

export async function reviewPlaybookUpdate(caller: Caller, id: string, body: z.infer<typeof reviewPlaybookUpdateBody>) {
  return asCaller(caller, async (tx) => {
    const current = await q.getPlaybookUpdate(tx, { id });
    if (!current) throw notFound("Playbook update");
    const status = body.decision === "accept" ? "accepted" : "rejected";
    if (!(await q.decidePlaybookUpdate(tx, { id, status, note: body.note ?? null }))) {
      throw new ApiError("conflict", `This playbook update was already ${current.status}`);
    }
    await recordAudit(tx, {
      action: `playbook_update.${body.decision}`,
      targetType: "playbook_update",
      targetId: id,
      clientId: current.clientId,
      details: { area: current.area, title: current.title, note: body.note ?? null },
    });
    return { update: (await q.getPlaybookUpdate(tx, { id }))! };
  });
}
