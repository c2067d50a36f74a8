import { z } from "zod";

export const missionStatus = z.enum(["planned", "active", "blocked", "done", "cancelled"]);

export const createMissionBody = z
  .object({
    title: z.string().trim().min(1).max(200),
    status: missionStatus.default("active"),
    summary: z.string().max(4000).optional(),
    clientId: z.uuid().optional(),
  })
  .strict();

export const updateMissionBody = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    status: missionStatus.optional(),
    summary: z.string().max(4000).optional(),
  })
  .strict();

export const listMissionsQuery = z.object({ status: missionStatus.optional() }).strict();
