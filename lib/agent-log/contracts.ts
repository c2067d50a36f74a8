import { z } from "zod";
import { defineContract, idParam, timestamp } from "@/lib/http/contract";
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
    /** 24 hours after it was written */
    expiresAt: timestamp,
  })
  .strict();

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
  .strict();

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
  .strict();

export const agentLogContracts = {
  listNotes: defineContract({
    method: "GET", path: "/api/v1/notes", permission: "notes.read", summary: "Live agent notes (expired ones never)",
    query: listNotesQuery, response: z.object({ notes: z.array(noteView) }).strict(),
  }),
  createNote: defineContract({
    method: "POST", path: "/api/v1/notes", permission: "notes.write", summary: "Write an ephemeral agent note (expires after 24 h)",
    body: createNoteBody, status: 201, response: z.object({ note: noteView }).strict(),
  }),
  purgeNotes: defineContract({
    method: "POST", path: "/api/v1/jobs/purge-notes", permission: "notes.purge", summary: "Delete expired agent notes",
    body: purgeNotesBody, response: z.object({ deleted: z.number().int() }).strict(),
  }),
  listEvents: defineContract({
    method: "GET", path: "/api/v1/events", permission: "events.read", summary: "The event log (tool successes and failures)",
    query: listEventsQuery, response: z.object({ events: z.array(eventView) }).strict(),
  }),
  createEvent: defineContract({
    method: "POST", path: "/api/v1/events", permission: "events.write", summary: "Log an event",
    body: createEventBody, status: 201, response: z.object({ event: eventView }).strict(),
  }),
  listPlaybookUpdates: defineContract({
    method: "GET", path: "/api/v1/playbook-updates", permission: "playbook.read", summary: "Script improvement ideas",
    query: listPlaybookUpdatesQuery, response: z.object({ updates: z.array(playbookUpdateView) }).strict(),
  }),
  createPlaybookUpdate: defineContract({
    method: "POST", path: "/api/v1/playbook-updates", permission: "playbook.propose",
    summary: "Propose a script improvement (locked constants refused)", body: createPlaybookUpdateBody, status: 201,
    response: z.object({ update: playbookUpdateView }).strict(),
  }),
  reviewPlaybookUpdate: defineContract({
    method: "POST", path: "/api/v1/playbook-updates/{id}/review", permission: "playbook.review", summary: "Accept or reject a playbook update",
    params: z.object({ id: idParam("Playbook update") }).strict(), body: reviewPlaybookUpdateBody,
    response: z.object({ update: playbookUpdateView }).strict(),
  }),
};
