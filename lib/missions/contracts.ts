import { z } from "zod";
import { apiViews, defineContract, idParam, timestamp } from "@/lib/http/contract";
import { createMissionBody, listMissionsQuery, missionStatus, updateMissionBody } from "./schemas";

export const missionView = z
  .object({
    id: z.uuid(),
    title: z.string(),
    status: missionStatus,
    summary: z.string(),
    clientId: z.uuid().nullable(),
    createdByName: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .strict().register(apiViews, { id: "Mission" });

const one = z.object({ mission: missionView }).strict();

export const missionContracts = {
  list: defineContract({
    id: "missions.list",
    method: "GET", path: "/api/v1/missions", permission: "missions.read", summary: "List missions",
    query: listMissionsQuery, response: z.object({ missions: z.array(missionView) }).strict(),
  }),
  create: defineContract({
    id: "missions.create",
    method: "POST", path: "/api/v1/missions", permission: "missions.write", summary: "Create a mission (used by briefings and the trigger vocabulary)",
    body: createMissionBody, response: one, status: 201,
  }),
  update: defineContract({
    id: "missions.update",
    method: "PATCH", path: "/api/v1/missions/{id}", permission: "missions.write", summary: "Change a mission's title, status or summary",
    params: z.object({ id: idParam("Mission") }).strict(), body: updateMissionBody, response: one,
  }),
};
