import "server-only";
import type { AgentCaller } from "@/lib/auth/caller";
import { can } from "@/lib/auth/permissions";
import { documentContracts } from "@/lib/documents/contracts";
import { isoDate } from "@/lib/documents/schemas";
import { getDocument, today } from "@/lib/documents/service";
import { notFound } from "@/lib/http/errors";
import type { WireResponse } from "@/lib/http/contract";
import { getBootContext } from "@/lib/memories/boot-context";
import { memoryContracts } from "@/lib/memories/contracts";
import { banner, truncate } from "@/lib/retrieval/context/format";

/**
 * The agent's documents as MCP resources and its boot context as an MCP prompt, for clients that
 * show resources and prompts to a person (or attach them to a conversation). They read what the
 * document and boot endpoints read, under the same permissions: an agent whose role may not read its
 * documents (an isolated agent) is offered none.
 */

const SCHEME = "memory-hq://documents";
const MIME = "text/markdown";
export const DAILY_TEMPLATE = `${SCHEME}/daily/{date}`;

export const mayReadDocuments = (caller: AgentCaller) => can(caller, documentContracts.get.permission);
export const mayBoot = (caller: AgentCaller) => can(caller, memoryContracts.boot.permission);

export interface DocumentResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
}

/** SOUL, the scratchpad and today's daily note: the documents an agent works with every session. */
export function documentResources(): DocumentResource[] {
  const date = today();
  return [
    { uri: `${SCHEME}/soul`, name: "soul", title: "SOUL", description: "Who you are, your voice and your standing rules.", mimeType: MIME },
    {
      uri: `${SCHEME}/working`,
      name: "working",
      title: "Scratchpad (WORKING)",
      description: "What you are doing right now (at most 2000 characters).",
      mimeType: MIME,
    },
    {
      uri: `${SCHEME}/daily/${date}`,
      name: `daily-${date}`,
      title: `Today's daily note (${date})`,
      description: "The running log of what happened today.",
      mimeType: MIME,
    },
  ];
}

export const dailyTemplate = {
  uriTemplate: DAILY_TEMPLATE,
  name: "daily",
  title: "Daily note",
  description: "The daily note of a day (date as YYYY-MM-DD).",
  mimeType: MIME,
};

/** Reads a document resource by its URI; an unknown URI is not found, as an unknown path is. */
export async function readDocumentResource(caller: AgentCaller, uri: string) {
  const m = /^memory-hq:\/\/documents\/(soul|working|daily\/(.+))$/.exec(uri);
  const date = m?.[2];
  if (!m || (date !== undefined && !isoDate.safeParse(date).success)) throw notFound(`Resource ${uri}`);
  const type = date !== undefined ? "daily" : (m[1] as "soul" | "working");
  const doc = await getDocument(caller, "me", type, date ? { date } : {});
  return {
    contents: [{ uri, mimeType: MIME, text: doc.content }],
    _meta: { version: doc.version, updatedAt: doc.updatedAt, updatedByName: doc.updatedByName },
  };
}

export const bootPrompt = {
  name: "boot",
  title: "Start a session",
  description:
    "Your boot context as the opening message: SOUL, scratchpad, today's note, core memories, pending commitments, recent work, " +
    "the locked constants and (internal agents) the team's highlights.",
};

/** The boot endpoint's answer as one message, ready to start a conversation with. */
export async function getBootPrompt(caller: AgentCaller) {
  const boot = JSON.parse(JSON.stringify(await getBootContext(caller, "me"))) as WireResponse<typeof memoryContracts.boot>;
  return {
    description: `Boot context of ${boot.agent.name}`,
    messages: [{ role: "user" as const, content: { type: "text" as const, text: bootText(boot) } }],
  };
}

type Boot = WireResponse<typeof memoryContracts.boot>;
type MemoryItem = Boot["core"][number];

/** A boot context as plain text, section by section; empty sections say so rather than vanish. */
export function bootText(b: Boot): string {
  const doc = (title: string, d: Boot["soul"]) => [banner(title), d.version === 0 ? "(empty)" : d.content.trim()];
  const memories = (title: string, items: MemoryItem[]) => [
    banner(title),
    ...(items.length ? items.map((m) => `- ${m.category}: ${m.title}${m.content && m.content !== m.title ? ` — ${truncate(m.content, 300)}` : ""}`) : ["(none)"]),
  ];
  const lines = [
    `You are ${b.agent.name} (${b.agent.kind} ${b.agent.role}${b.agent.clientName ? `, for ${b.agent.clientName}` : ""}).`,
    "",
    ...doc("SOUL", b.soul),
    "",
    ...doc(`SCRATCHPAD (version ${b.working.version})`, b.working),
    "",
    ...doc(`TODAY (${b.daily.date ?? ""})`, b.daily),
    "",
    ...memories("CORE MEMORIES", b.core),
    "",
    ...memories("PENDING COMMITMENTS", b.pending),
    "",
    ...memories("RECENT WORK", b.recent),
    "",
    banner("LOCKED CONSTANTS (never contradict these)"),
    ...(b.lockedConstants.length ? b.lockedConstants.map((c) => `- ${c.label}: ${c.value}`) : ["(none)"]),
  ];
  if (b.teamHighlights) lines.push("", ...memories("TEAM HIGHLIGHTS", b.teamHighlights));
  return lines.join("\n");
}
