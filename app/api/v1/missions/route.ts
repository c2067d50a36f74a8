// GET /api/v1/missions — missions the caller may see (?status=)
// POST /api/v1/missions — create a mission (HQ admin, curator)
import { route } from "@/lib/http/route";
import { missionContracts as c } from "@/lib/missions/contracts";
import { createMission, listMissions } from "@/lib/missions/service";

export const GET = route(c.list, async ({ caller, query }) => listMissions(caller, query));

export const POST = route(c.create, async ({ caller, body }) => createMission(caller, body));
