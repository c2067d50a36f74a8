import "server-only";
import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { can, type Permission } from "@/lib/auth/permissions";
import { asCaller } from "@/lib/db";
import type { searchResultsView } from "./contracts";
import { searchKind, type SearchKind } from "./queries";
import type { searchQuery } from "./schemas";

/** The permission each kind is read under: the same as its own list endpoint's. */
const READ: Record<SearchKind, Permission> = {
  agents: "agents.read",
  contacts: "contacts.read",
  knowledge: "knowledge.read",
  escalations: "escalations.read",
};

/**
 * GET /search: agents, contacts, knowledge entries and escalations whose name or title holds every
 * word searched. A kind the caller's role may not read is not searched and is named in
 * `notSearched`; the others are read under the caller's row rules, so a field agent finds its own
 * client's contacts and escalations only, and nobody finds what its list would not show it.
 */
export async function search(caller: Caller, query: z.infer<typeof searchQuery>): Promise<z.input<typeof searchResultsView>> {
  const kinds = (Object.keys(READ) as SearchKind[]).filter((k) => can(caller, READ[k]));
  const found = await asCaller(caller, (tx) => Promise.all(kinds.map((k) => searchKind(tx, k, query))));
  const results = { agents: [], contacts: [], knowledge: [], escalations: [] } as Record<SearchKind, unknown[]>;
  kinds.forEach((k, i) => (results[k] = found[i]!));
  return { ...(results as Pick<z.input<typeof searchResultsView>, SearchKind>), notSearched: (Object.keys(READ) as SearchKind[]).filter((k) => !kinds.includes(k)) };
}
