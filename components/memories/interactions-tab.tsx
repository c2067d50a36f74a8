"use client";

import { Card, CardHeader } from "@/components/ui/card";
import { useContacts } from "@/lib/console/hooks/review";
import type { Agent } from "@/lib/console/types";
import { Conversations } from "./conversations";

const CONTACT_OPTIONS = 500;

/**
 * The conversations the agent recorded (recall memory) as chats: the most recently active first,
 * filtered by contact and channel, searchable, each opened as a whole thread.
 */
export function InteractionsTab({ agent }: { agent: Agent }) {
  // the contacts offered in the filter: the agent's client's (HQ's for an internal agent), by name
  const contacts = useContacts({ clientId: agent.clientId ?? undefined }, { page: 1, pageSize: CONTACT_OPTIONS });
  const options = contacts.rows
    .filter((c) => c.name || c.email || c.phone)
    .map((c) => ({ id: c.id, name: (c.name || c.email || c.phone)! }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Card>
      <CardHeader
        title="Interactions"
        description="Conversations the agent recorded, the most recently active first, each titled by who it was with: searchable recall memory."
      />
      <Conversations
        agentId={agent.id}
        contacts={options}
        agentNames={new Map([[agent.id, agent.name]])}
        emptyText={`${agent.name} hasn't recorded any conversations.`}
      />
    </Card>
  );
}
