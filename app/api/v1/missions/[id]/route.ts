// PATCH /api/v1/missions/[id] — change a mission's title, status or summary (HQ admin, curator)
import { route } from "@/lib/http/route";
import { missionContracts as c } from "@/lib/missions/contracts";
import { updateMission } from "@/lib/missions/service";

export const PATCH = route(c.update, async ({ caller, body, params }) => updateMission(caller, params.id, body));
