import "server-only";
import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { recordAudit } from "@/lib/audit/queries";
import { asCaller } from "@/lib/db";
import * as q from "./queries";
import type { createEventBody, listEventsQuery } from "./schemas";
import { refuseIdentifiers } from "@/lib/review/refusals";
import { resolveAgentWriteScope } from "./scope";

/** The event log: tool successes and failures, for the optimizer's daily review. */
export async function createEvent(caller: Caller, body: z.infer<typeof createEventBody>) {
  refuseIdentifiers({ summary: body.summary, payload: body.payload ? JSON.stringify(body.payload) : null });
  return asCaller(caller, async (tx) => {
    const scope = await resolveAgentWriteScope(tx, caller, body);
    const event = await q.insertEvent(tx, {
      ...scope,
      kind: body.kind,
      outcome: body.outcome ?? "info",
      summary: body.summary,
      payload: body.payload ?? {},
      occurredAt: body.occurredAt ?? null,
    });
    await recordAudit(tx, {
      action: "event.create",
      targetType: "event",
      targetId: event.id,
      clientId: scope.clientId,
      details: { kind: body.kind, outcome: body.outcome ?? "info" },
    });
    return { event };
  });
}

export async function listEvents(caller: Caller, query: z.infer<typeof listEventsQuery>) {
  return { events: await asCaller(caller, (tx) => q.listEvents(tx, query)) };
}
