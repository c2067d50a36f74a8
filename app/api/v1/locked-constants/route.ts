// GET /api/v1/locked-constants — prices, guarantees, compliance rules, escalation numbers, booking links
import { route } from "@/lib/http/route";
import { listLockedConstants } from "@/lib/locked-constants/service";

export const GET = route({ permission: "constants.read" }, async ({ caller }) => listLockedConstants(caller));
