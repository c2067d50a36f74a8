// GET /api/v1/missions — missions the caller may see (?status=)
// POST /api/v1/missions — create a mission (HQ admin, curator)
import { json, route } from "@/lib/http/route";
import { createMissionBody, listMissionsQuery } from "@/lib/missions/schemas";
import { createMission, listMissions } from "@/lib/missions/service";

export const GET = route({ permission: "missions.read", query: listMissionsQuery }, async ({ caller, query }) =>
  listMissions(caller, query),
);

export const POST = route({ permission: "missions.write", body: createMissionBody }, async ({ caller, body }) =>
  json(await createMission(caller, body), 201),
);
