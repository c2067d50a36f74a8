// PATCH /api/v1/missions/[id] — change a mission's title, status or summary (HQ admin, curator)
import { pathId } from "@/lib/http/ids";
import { route } from "@/lib/http/route";
import { updateMissionBody } from "@/lib/missions/schemas";
import { updateMission } from "@/lib/missions/service";

export const PATCH = route({ permission: "missions.write", body: updateMissionBody }, async ({ caller, body, params }) =>
  updateMission(caller, pathId(params.id, "Mission"), body),
);
