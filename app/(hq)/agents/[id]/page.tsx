import type { Metadata } from "next";
import { Suspense } from "react";
import { AgentDetail } from "@/components/agents/agent-detail";
import { LoadingState } from "@/components/ui/loading-state";

export const metadata: Metadata = { title: "Agent · Memory HQ" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense fallback={<LoadingState label="Loading agent…" variant="spinner" />}>
      <AgentDetail id={id} />
    </Suspense>
  );
}
