"use client";

import { Alert } from "@/components/ui/alert";
import type { Agent } from "@/lib/console/types";
import { AgentDetailsCard } from "./agent-details-card";
import { AgentKeysCard } from "./agent-keys-card";
import { AgentLimitsCard } from "./agent-limits-card";

export function AgentOverviewTab({ agent, isAdmin }: { agent: Agent; isAdmin: boolean }) {
  return (
    <div className="space-y-6">
      <AgentDetailsCard agent={agent} isAdmin={isAdmin} />
      <AgentLimitsCard agent={agent} isAdmin={isAdmin} />
      {isAdmin ? (
        <AgentKeysCard agent={agent} />
      ) : (
        <Alert tone="info" title="API keys">
          Only HQ admins can see, issue and revoke this agent&apos;s API keys.
        </Alert>
      )}
    </div>
  );
}
