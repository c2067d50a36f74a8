"use client";

import { useState } from "react";
import { useIsAdmin } from "@/components/shell/current-user";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { useAgents } from "@/lib/console/hooks/agents";
import { AgentsTable } from "./agents-table";
import { ClientsCard } from "./clients-card";
import { NewAgentDialog } from "./new-agent-dialog";

export function AgentsPage() {
  const isAdmin = useIsAdmin();
  const agents = useAgents();
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
          {agents.isPending ? (
            <LoadingState label="Loading agents…" />
          ) : agents.isError ? (
            <ErrorState error={agents.error} onRetry={() => agents.refetch()} retrying={agents.isFetching} />
          ) : agents.data.length === 0 ? (
            <EmptyState
              title="No agents yet"
              description="Create an agent and issue it a key so it can call the API."
              action={isAdmin && <Button onClick={() => setCreating(true)}>New agent</Button>}
            />
          ) : (
            <AgentsTable agents={agents.data} />
          )}
        </Card>
        <ClientsCard />
      </div>
      {isAdmin && <NewAgentDialog open={creating} onClose={() => setCreating(false)} />}
    </>
  );
}
