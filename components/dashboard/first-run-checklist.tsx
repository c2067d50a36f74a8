"use client";

import Link from "next/link";
import { useIsAdmin } from "@/components/shell/current-user";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cn } from "@/lib/console/cn";
import { useAgents, useClients } from "@/lib/console/hooks/agents";
import { useAnyAudit } from "@/lib/console/hooks/audit";

/**
 * A new admin's first steps, in order: a client, an agent, a key for it, and the agent's first call.
 * Each step is ticked from what HQ already holds; the card disappears once all four are done.
 */
export function FirstRunChecklist() {
  const isAdmin = useIsAdmin();
  const clients = useClients();
  const agents = useAgents();
  const keyIssued = useAnyAudit({ action: "agent_key.issue" });
  const agentCalled = useAnyAudit({ actorType: "agent" });
  if (!isAdmin || !clients.data || !agents.data || keyIssued.data === undefined || agentCalled.data === undefined) return null;

  const firstAgent = agents.data[0];
  const steps = [
    { done: clients.data.length > 0, title: "Add a client", text: "The business a field agent will serve; its data stays apart from every other client's.", href: "/agents", cta: "Add a client" },
    { done: agents.data.length > 0, title: "Create an agent", text: "Internal agents work for HQ; field agents are deployed to one client.", href: "/agents", cta: "Create an agent" },
    {
      done: keyIssued.data,
      title: "Issue the agent an API key",
      text: "The key is shown once: paste it into the agent's configuration.",
      href: firstAgent ? `/agents/${firstAgent.id}` : "/agents",
      cta: "Issue a key",
    },
    {
      done: agentCalled.data,
      title: "Make the first call",
      text: "With the key, the agent calls POST /api/v1/retrieve before it answers, and writes what it learns with POST /api/v1/agents/me/memories.",
      href: "/retrieval",
      cta: "Try retrieval in the playground",
    },
  ];
  if (steps.every((s) => s.done)) return null;
  const next = steps.findIndex((s) => !s.done);

  return (
    <Card className="mb-6" data-testid="first-run-checklist">
      <CardHeader title="Get started" description={`${steps.filter((s) => s.done).length} of ${steps.length} done: from a client to your agent's first call.`} />
      <CardBody>
        <ol className="space-y-3">
          {steps.map((s, i) => (
            <li key={s.title} className="flex items-start gap-3">
              <span
                className={cn(
                  "mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold",
                  s.done ? "bg-emerald-100 text-emerald-700" : i === next ? "bg-indigo-600 text-white" : "bg-slate-100 text-slate-500",
                )}
                aria-hidden="true"
              >
                {s.done ? "✓" : i + 1}
              </span>
              <div className="min-w-0 text-sm">
                <p className={cn("font-medium", s.done ? "text-slate-500 line-through" : "text-slate-900")}>
                  {s.title}
                  <span className="sr-only">{s.done ? " (done)" : " (to do)"}</span>
                </p>
                {!s.done && (
                  <p className="text-slate-600">
                    {s.text}{" "}
                    {i === next && (
                      <Link href={s.href} className="font-medium text-indigo-600 hover:text-indigo-500">
                        {s.cta} →
                      </Link>
                    )}
                  </p>
                )}
              </div>
            </li>
          ))}
        </ol>
      </CardBody>
    </Card>
  );
}
