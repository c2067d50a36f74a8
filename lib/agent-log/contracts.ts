import { z } from "zod";
import { apiViews, defineContract, idParam, timestamp } from "@/lib/http/contract";
import {
  createEventBody,
  createNoteBody,
  createPlaybookUpdateBody,
  eventOutcome,
  listEventsQuery,
  listNotesQuery,
  listPlaybookUpdatesQuery,
  playbookArea,
  playbookStatus,
  purgeNotesBody,
  reviewPlaybookUpdateBody,
} from "./schemas";

export const noteView = z
  .object({
    id: z.uuid(),
    agentId: z.uuid(),
    agentName: z.string().nullable(),
    clientId: z.uuid().nullable(),
    contactId: z.uuid().nullable(),
    content: z.string(),
    createdAt: timestamp,
    expiresAt: timestamp.describe("24 hours after it was written"),
  })
  .strict().register(apiViews, { id: "Note" });

export const eventView = z
  .object({
    id: z.uuid(),
    agentId: z.uuid(),
    agentName: z.string().nullable(),
    clientId: z.uuid().nullable(),
    contactId: z.uuid().nullable(),
    kind: z.string(),
    outcome: eventOutcome,
    summary: z.string(),
    payload: z.record(z.string(), z.unknown()),
    occurredAt: timestamp,
  })
  .strict().register(apiViews, { id: "Event" });

export const playbookUpdateView = z
  .object({
    id: z.uuid(),
    agentId: z.uuid(),
    agentName: z.string().nullable(),
    clientId: z.uuid().nullable(),
    area: playbookArea,
    title: z.string(),
    content: z.string(),
    status: playbookStatus,
    reviewNote: z.string().nullable(),
    reviewedByName: z.string().nullable(),
    reviewedAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .strict().register(apiViews, { id: "PlaybookUpdate" });

export const agentLogContracts = {
  listNotes: defineContract({
    id: "agentLog.listNotes",
    method: "GET", path: "/api/v1/notes", permission: "notes.read", summary: "Live agent notes (expired ones never)",
    query: listNotesQuery, response: z.object({ notes: z.array(noteView) }).strict(),
  }),
  createNote: defineContract({
    id: "agentLog.createNote",
    errors: [
      { code: "conflict", when: "The contact opted out: nothing more is stored about them." },
      { code: "pii_refused", when: "The text holds personal data the server refuses to store; details.findings names what was found." },
    ],
    method: "POST", path: "/api/v1/notes", permission: "notes.write", summary: "Write an ephemeral agent note (expires after 24 h)",
    body: createNoteBody, status: 201, response: z.object({ note: noteView }).strict(),
  }),
  purgeNotes: defineContract({
    id: "agentLog.purgeNotes",
    method: "POST", path: "/api/v1/jobs/purge-notes", permission: "notes.purge", summary: "Delete expired agent notes",
    body: purgeNotesBody, response: z.object({ deleted: z.number().int() }).strict(),
  }),
  listEvents: defineContract({
    id: "agentLog.listEvents",
    method: "GET", path: "/api/v1/events", permission: "events.read", summary: "The event log (tool successes and failures)",
    query: listEventsQuery, response: z.object({ events: z.array(eventView) }).strict(),
  }),
  createEvent: defineContract({
    id: "agentLog.createEvent",
    errors: [
      { code: "conflict", when: "The contact opted out: nothing more is stored about them." },
      { code: "pii_refused", when: "The text holds personal data the server refuses to store; details.findings names what was found." },
    ],
    method: "POST", path: "/api/v1/events", permission: "events.write", summary: "Log an event",
    body: createEventBody, status: 201, response: z.object({ event: eventView }).strict(),
  }),
  listPlaybookUpdates: defineContract({
    id: "agentLog.listPlaybookUpdates",
    method: "GET", path: "/api/v1/playbook-updates", permission: "playbook.read", summary: "Script improvement ideas",
    query: listPlaybookUpdatesQuery, response: z.object({ updates: z.array(playbookUpdateView) }).strict(),
  }),
  createPlaybookUpdate: defineContract({
    id: "agentLog.createPlaybookUpdate",
    errors: [
      { code: "locked_constant", when: "The update would change a locked constant: only HQ admins change them, in the console." },
    ],
    method: "POST", path: "/api/v1/playbook-updates", permission: "playbook.propose",
    summary: "Propose a script improvement (locked constants refused)", body: createPlaybookUpdateBody, status: 201,
    response: z.object({ update: playbookUpdateView }).strict(),
  }),
  reviewPlaybookUpdate: defineContract({
    id: "agentLog.reviewPlaybookUpdate",
    errors: [
      { code: "conflict", when: "The playbook update was already reviewed." },
    ],
    method: "POST", path: "/api/v1/playbook-updates/{id}/review", permission: "playbook.review", summary: "Accept or reject a playbook update",
    params: z.object({ id: idParam("Playbook update") }).strict(), body: reviewPlaybookUpdateBody,
    response: z.object({ update: playbookUpdateView }).strict(),
  }),
};
