// PUT /api/v1/contacts/[id]/facts/[key] — write a fact directly (manager agents and HQ admins only; 403 for everyone else)
import { route } from "@/lib/http/route";
import { putFact } from "@/lib/review/contacts-service";
import { putFactBody } from "@/lib/review/schemas";

export const PUT = route({ permission: "facts.write", body: putFactBody }, async ({ caller, body, params }) =>
  putFact(caller, params.id, params.key, body),
);
