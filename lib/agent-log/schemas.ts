import { z } from "zod";
import { apiTimestamp } from "@/lib/http/input-guards";

const timestamp = apiTimestamp;

export const createNoteBody = z
  .object({
    content: z.string().trim().min(1).max(4000),
    contactId: z.uuid().optional().describe("the contact the note is about; erased with the contact on opt-out"),
    clientId: z.uuid().optional().describe("internal agents may file a note under a client; a field agent's notes are always its own client's"),
  })
  .strict();

export const listNotesQuery = z
  .object({
    agentId: z.uuid().optional(),
    contactId: z.uuid().optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();

export const purgeNotesBody = z
  .object({
    now: timestamp.optional().describe("replay the cleanup as of this time (defaults to now)"),
  })
  .strict();

export const eventOutcome = z.enum(["success", "failure", "info"]);

export const createEventBody = z
  .object({
    kind: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z][a-z0-9_.-]{0,63}$/, "a short event kind such as tool.sms_send or booking.failed"),
    summary: z.string().trim().min(1).max(2000),
    payload: z.record(z.string(), z.unknown()).optional(),
    outcome: eventOutcome.optional(),
    contactId: z.uuid().optional(),
    clientId: z.uuid().optional(),
    occurredAt: timestamp.optional(),
  })
  .strict();

export const listEventsQuery = z
  .object({
    kind: z.string().trim().max(64).optional(),
    outcome: eventOutcome.optional(),
    agentId: z.uuid().optional(),
    since: timestamp.optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();

export const playbookArea = z.enum(["follow-up", "objection", "kb-gap", "routing", "script", "other"]);
export const playbookStatus = z.enum(["proposed", "accepted", "rejected"]);

export const createPlaybookUpdateBody = z
  .object({
    area: playbookArea,
    title: z.string().trim().min(1).max(200),
    content: z.string().trim().min(1).max(8000),
    clientId: z.uuid().optional(),
  })
  .strict();

export const listPlaybookUpdatesQuery = z
  .object({
    status: playbookStatus.optional(),
    area: playbookArea.optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();

export const reviewPlaybookUpdateBody = z
  .object({
    decision: z.enum(["accept", "reject"]),
    note: z.string().trim().min(1).max(1000).optional(),
  })
  .strict();
