// GET /api/v1/locked-constants — prices, guarantees, compliance rules, escalation numbers, booking links
import { route } from "@/lib/http/route";
import { lockedConstantContracts as c } from "@/lib/locked-constants/contracts";
import { listLockedConstants } from "@/lib/locked-constants/service";

export const GET = route(c.list, async ({ caller }) => listLockedConstants(caller));
