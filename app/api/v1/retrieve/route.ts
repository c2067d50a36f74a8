// POST /api/v1/retrieve — classify, hybrid-search the scopes the level calls for (or `scopes`), fuse, log
import { route } from "@/lib/http/route";
import { retrieveBody } from "@/lib/retrieval/schemas";
import { retrieve } from "@/lib/retrieval/service";

export const POST = route({ permission: "retrieval.use", body: retrieveBody }, async ({ caller, body }) => retrieve(caller, body));
