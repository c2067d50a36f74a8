"use client";

import { useState } from "react";
import { useIsAdmin } from "@/components/shell/current-user";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { DataTable } from "@/components/ui/data-list";
import { PageHeader } from "@/components/ui/page-header";
import { useAgents } from "@/lib/console/hooks/agents";
import { pageLocally } from "@/lib/console/hooks/paged-list";
import { useListUrl } from "@/lib/console/url-state";
import { AGENT_COLUMNS } from "./agent-columns";
import { ClientsCard } from "./clients-card";
import { NewAgentDialog } from "./new-agent-dialog";

const PAGE_SIZE = 50;

export function AgentsPage() {
  const isAdmin = useIsAdmin();
  const agents = useAgents();
  const { page, setPage } = useListUrl({});
  const [creating, setCreating] = useState(false);

  const counts = agents.data && {
    internal: agents.data.filter((a) => a.kind === "internal").length,
    field: agents.data.filter((a) => a.kind === "field").length,
  };

  return (
    <>
      <PageHeader
        title="Agents"
        description="Internal agents work for HQ and share team knowledge. Field agents are deployed to one client and see only that client's data."
        actions={isAdmin && <Button onClick={() => setCreating(true)}>New agent</Button>}
      />
      <div className="space-y-8">
        <Card>
          <CardHeader
            title="All agents"
            description={counts ? `${counts.internal} internal · ${counts.field} field` : undefined}
          />
          <DataTable
            list={pageLocally(agents, page, PAGE_SIZE)}
            onPage={setPage}
            noun={["agent", "agents"]}
            aria-label="Agents"
            columns={AGENT_COLUMNS}
            rowProps={() => ({ "data-testid": "agent-row" })}
            empty={
              <EmptyState
                title="No agents yet"
                description="Create an agent and issue it a key so it can call the API."
                action={isAdmin && <Button onClick={() => setCreating(true)}>New agent</Button>}
              />
            }
          />
        </Card>
        <ClientsCard />
      </div>
      {isAdmin && <NewAgentDialog open={creating} onClose={() => setCreating(false)} />}
    </>
  );
}
