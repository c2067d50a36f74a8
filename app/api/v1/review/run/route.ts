// POST /api/v1/review/run — the manager pass: refuse violations, auto-approve confident ones, leave the rest
import { route } from "@/lib/http/route";
import { reviewContracts as c } from "@/lib/review/contracts";
import { runManagerPass } from "@/lib/review/manager-pass";

export const POST = route(c.runManagerPass, async ({ caller, body }) => runManagerPass(caller, body));
