import { z } from "zod";
import { agentKind, agentRole } from "@/lib/agents/schemas";
import { apiViews, defineContract } from "@/lib/http/contract";
import { knowledgeCategory, knowledgeStatus } from "@/lib/knowledge/schemas";
import { escalationSeverity, escalationStatus } from "@/lib/lifecycle/schemas";
import { searchQuery } from "./schemas";

/** The kinds of thing the search looks through, each under its own read permission. */
export const SEARCH_KINDS = ["agents", "contacts", "knowledge", "escalations"] as const;

export const searchResultsView = z
  .object({
    agents: z.array(z.object({ id: z.uuid(), name: z.string(), kind: agentKind, role: agentRole, clientName: z.string().nullable() }).strict()),
    contacts: z.array(
      z
        .object({
          id: z.uuid(),
          name: z.string().describe("the contact's name, else its email or phone"),
          clientName: z.string().nullable(),
        })
        .strict(),
    ),
    knowledge: z.array(z.object({ id: z.uuid(), title: z.string(), category: knowledgeCategory, status: knowledgeStatus }).strict()),
    escalations: z.array(z.object({ id: z.uuid(), question: z.string(), severity: escalationSeverity, status: escalationStatus, clientName: z.string().nullable() }).strict()),
    notSearched: z
      .array(z.enum(SEARCH_KINDS))
      .describe("the kinds the caller's role may not read: left out, never answered as empty"),
  })
  .strict()
  .meta({ description: "What matches a name or title, of each kind the caller may read." })
  .register(apiViews, { id: "SearchResults" });

export const searchContracts = {
  search: defineContract({
    id: "search.search",
    method: "GET", path: "/api/v1/search", permission: "authenticated",
    summary:
      "Find agents, contacts, knowledge entries and escalations by name or title (the console's jump-to palette): each kind the caller may read, as its row rules allow, best matches first",
    query: searchQuery, response: searchResultsView,
  }),
};
