// POST /api/v1/retrieve — classify, hybrid-search the scopes the level calls for (or `scopes`), fuse, log
import { route } from "@/lib/http/route";
import { retrievalContracts as c } from "@/lib/retrieval/contracts";
import { retrieve } from "@/lib/retrieval/service";

export const POST = route(c.retrieve, async ({ caller, body }) => retrieve(caller, body));
