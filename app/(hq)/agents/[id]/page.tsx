import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { AgentDetail } from "@/components/agents/agent-detail";
import { LoadingState } from "@/components/ui/loading-state";
import { isUuid } from "@/lib/http/ids";

export const metadata: Metadata = { title: "Agent · Memory HQ" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // only a UUID can name one: anything else is an address no page serves
  if (!isUuid(id)) notFound();
  return (
    <Suspense fallback={<LoadingState label="Loading agent…" variant="spinner" />}>
      <AgentDetail id={id} />
    </Suspense>
  );
}
