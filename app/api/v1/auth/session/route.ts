// GET /api/v1/auth/session — who is signed in, and whether HQ still needs its first admin
import { getSessionUser } from "@/lib/auth/session";
import { needsSetup } from "@/lib/auth/service";
import { route } from "@/lib/http/route";

export const GET = route({ permission: null }, async ({ req }) => ({
  needsSetup: await needsSetup(),
  user: await getSessionUser(req.cookies),
}));
