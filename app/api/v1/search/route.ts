// GET /api/v1/search?q=&limit= — agents, contacts, knowledge entries and escalations by name or title (the console's palette)
import { route } from "@/lib/http/route";
import { searchContracts as c } from "@/lib/search/contracts";
import { search } from "@/lib/search/service";

export const GET = route(c.search, async ({ caller, query }) => search(caller, query));
