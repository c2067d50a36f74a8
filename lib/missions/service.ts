import "server-only";
import type { z } from "zod";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { asCaller } from "@/lib/db";
import { ApiError, notFound } from "@/lib/http/errors";
import * as q from "./queries";
import type { createMissionBody, listMissionsQuery, updateMissionBody } from "./schemas";

export async function listMissions(caller: Caller, query: z.infer<typeof listMissionsQuery>) {
  return { missions: await asCaller(caller, (tx) => q.listMissions(tx, query)) };
}

export async function createMission(caller: Caller, body: z.infer<typeof createMissionBody>) {
  return asCaller(caller, async (tx) => {
    if (body.clientId && !(await tx.query("select 1 from clients where id = $1", [body.clientId])).length) {
      throw new ApiError("validation_failed", "clientId does not name a client");
    }
    const mission = await q.insertMission(tx, {
      title: body.title,
      status: body.status,
      summary: body.summary ?? "",
      clientId: body.clientId ?? null,
      createdByName: caller.name,
    });
    await recordAudit(tx, { action: "mission.create", targetType: "mission", targetId: mission.id, clientId: mission.clientId, details: { title: mission.title, status: mission.status } });
    return { mission };
  });
}

export async function updateMission(caller: Caller, id: string, body: z.infer<typeof updateMissionBody>) {
  return asCaller(caller, async (tx) => {
    const mission = await q.updateMission(tx, { id, ...body });
    if (!mission) throw notFound("Mission");
    await recordAudit(tx, { action: "mission.update", targetType: "mission", targetId: id, clientId: mission.clientId, details: body });
    return { mission };
  });
}
