"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCurrentUser } from "@/components/shell/current-user";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { Tabs } from "@/components/ui/tabs";
import { isApiError } from "@/lib/console/api";
import { useAgent } from "@/lib/console/hooks/agents";
import { KIND_LABEL, KIND_TONE, ROLE_LABEL } from "./agent-labels";
import { AgentStatusBadge } from "./agent-status-badge";
import { agentTabs, type AgentTabContext } from "./agent-tabs";

const BACK = { href: "/agents", label: "Agents" };

export function AgentDetail({ id }: { id: string }) {
  const agent = useAgent(id);
  const user = useCurrentUser();
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();

  if (agent.isPending) {
    return (
      <>
        <PageHeader title={<span className="inline-block h-7 w-40 animate-pulse rounded bg-slate-200" />} back={BACK} />
        <LoadingState label="Loading agent…" variant="spinner" />
      </>
    );
  }
  if (agent.isError) {
    if (isApiError(agent.error, 404)) {
      return (
        <>
          <PageHeader title="Agent not found" back={BACK} />
          <EmptyState
            title="This agent doesn't exist"
            description="It may have been removed, or the link is wrong."
            action={
              <Link href="/agents" className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
                Back to all agents
              </Link>
            }
          />
        </>
      );
    }
    return (
      <>
        <PageHeader title="Agent" back={BACK} />
        <ErrorState error={agent.error} onRetry={() => agent.refetch()} retrying={agent.isFetching} />
      </>
    );
  }

  const a = agent.data;
  const ctx: AgentTabContext = { agent: a, user, isAdmin: user.role === "admin" };
  const tabs = agentTabs.filter((t) => !t.visible || t.visible(ctx));
  const requested = searchParams.get("tab");
  const active = tabs.find((t) => t.id === requested)?.id ?? tabs[0]?.id;

  // another tab starts with its own view: the filters and page of the one left stay behind
  function selectTab(tabId: string) {
    router.replace(tabId === tabs[0]?.id ? pathname : `${pathname}?tab=${encodeURIComponent(tabId)}`, { scroll: false });
  }

  return (
    <>
      <PageHeader
        back={BACK}
        title={a.name}
        description={a.description || undefined}
        meta={
          <>
            <Badge tone={KIND_TONE[a.kind]}>{KIND_LABEL[a.kind]} agent</Badge>
            <Badge>{ROLE_LABEL[a.role]}</Badge>
            {a.clientName && a.clientId && (
              <Link href={`/clients/${a.clientId}`} className="inline-flex max-w-full min-w-0 rounded-md hover:opacity-80">
                <Badge tone="blue">Client: {a.clientName}</Badge>
              </Link>
            )}
            <AgentStatusBadge disabledAt={a.disabledAt} />
          </>
        }
      />
      <Tabs
        label="Agent sections"
        value={active}
        onValueChange={selectTab}
        items={tabs.map((t) => ({ id: t.id, label: t.label, content: t.render(ctx) }))}
      />
    </>
  );
}
