// Plain-text rendering of what retrieval assembles, ready to paste into a system prompt. Pure
// functions of their inputs (no clock, no database), so the exact text is unit-tested.
import type { ServerResponse } from "@/lib/http/contract";
import type { retrievalContracts } from "../contracts";
import type { FusedItem } from "../search/fuse";
import type { RetrievalScope } from "../search/scopes";
import type { Trigger, TriggerLevel } from "../smart-trigger/types";
import { relativeDatesLine } from "./relative-dates";

export const SOURCE_LABELS: Record<RetrievalScope, string> = {
  memories: "Memory",
  documents: "Document",
  interactions: "Conversation",
  team: "Team knowledge",
  knowledge: "HQ knowledge base",
};

/** How much of one item's text goes into a prompt block. */
export const ITEM_CONTEXT_CHARS = 600;

export function truncate(text: string, max: number): string {
  const t = text.trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** `2026-11-21 14:05 UTC` — prompts and logs read the same unambiguous time. */
export function formatUtc(d: Date | string): string {
  const iso = new Date(d).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

const day = (d: Date | string) => new Date(d).toISOString().slice(0, 10);

/** The sources whose item date is when its text was said: a turn's time, a memory's. */
const SAID_WHEN_DATED = new Set<RetrievalScope>(["interactions", "memories", "team"]);

export const banner = (title: string) => `═══ ${title} ═══`;

function itemHeading(item: Pick<FusedItem, "source" | "title" | "createdAt" | "meta">): string {
  const meta = item.meta ?? {};
  const facts: string[] = [];
  if (typeof meta.tier === "string" && typeof meta.category === "string") facts.push(`${meta.tier}/${meta.category}`);
  else if (typeof meta.category === "string") facts.push(meta.category);
  // a conversation turn's title already names its channel ("From Maria (sms)")
  if (typeof meta.channel === "string" && !item.title.includes(`(${meta.channel})`)) facts.push(meta.channel);
  facts.push(day(item.createdAt));
  return `${SOURCE_LABELS[item.source]} (${facts.join(", ")}) — ${item.title}`;
}

/**
 * The block POST /retrieve answers with: each item numbered, labelled with where it came from and
 * when, best first; a conversation turn or a memory whose text gives times relative to when it was
 * said ("yesterday", "last week") has them resolved on a line under it (a document's or a knowledge
 * entry's date says when it was stored, not when it was written, so theirs are left as they are).
 * Empty when nothing was retrieved (level none, or no match): an empty block is better left out of a
 * prompt than sent as a heading with nothing under it.
 */
export function formatRetrievedContext(p: { level: TriggerLevel; triggers: Trigger[]; items: FusedItem[]; fallback?: "shared" | null }): string {
  if (!p.items.length) return "";
  const why = p.triggers.length ? ` — ${p.triggers.map((t) => `${t.kind}: "${t.match}"`).join(", ")}` : "";
  const from = p.fallback === "shared" ? " (nothing in the agent's own memory; from the team's shared memory)" : "";
  const lines = [banner("RETRIEVED CONTEXT"), `Retrieval level: ${p.level}${from}${why}`, ""];
  p.items.forEach((item, i) => {
    lines.push(`[${i + 1}] ${itemHeading(item)}`);
    const body = truncate(item.content, ITEM_CONTEXT_CHARS);
    if (body && body !== item.title) lines.push(body);
    const dates = SAID_WHEN_DATED.has(item.source) ? relativeDatesLine(body || item.title, item.createdAt) : "";
    if (dates) lines.push(dates);
    lines.push("");
  });
  return lines.join("\n").trimEnd();
}

// ── context assembly ─────────────────────────────────────────────────────────────────

export interface ContextSection {
  key: "soul" | "scratchpad" | "situation" | "memories" | "constants";
  title: string;
  content: string;
}

/** The sections as one text, each under its `═══ TITLE ═══` banner; empty sections are left out. */
export function joinSections(sections: ContextSection[]): string {
  return sections
    .filter((s) => s.content.trim())
    .map((s) => `${banner(s.title)}\n${s.content.trim()}`)
    .join("\n\n");
}

export interface ContextMemory {
  id: string;
  tier: string;
  category: string;
  title: string;
  content: string;
  occurredAt: Date | string;
}

/**
 * One line per memory (the "relevant memories" in the system prompt), with the times it gives
 * relative to when it happened resolved after it.
 */
export function formatMemories(memories: ContextMemory[]): string {
  return memories
    .map((m) => {
      const body = truncate(m.content, 300);
      const text = `${m.title}${body && body !== m.title ? `: ${body}` : ""}`;
      const dates = relativeDatesLine(text, m.occurredAt);
      return `- ${m.tier}/${m.category} · ${day(m.occurredAt)} — ${text}${dates ? ` ${dates}` : ""}`;
    })
    .join("\n");
}

export interface ContextConstant {
  key: string;
  label: string;
  value: string;
}

/** Locked constants: stated as facts the agent must not change. */
export function formatLockedConstants(constants: ContextConstant[]): string {
  if (!constants.length) return "";
  return [
    "Fixed by HQ. Quote them exactly; never change, negotiate or contradict them.",
    ...constants.map((c) => `- ${c.label} (${c.key}): ${c.value}`),
  ].join("\n");
}

// ── situational briefing ─────────────────────────────────────────────────────────────

/** What the briefing is made of: the briefing view without its text and bookkeeping. */
export type BriefingData = Pick<ServerResponse<typeof retrievalContracts.briefing>, "windowHours" | "since" | "events" | "missions" | "interactions" | "proposals">;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The `═══ CURRENT SITUATION ═══` section: what happened across the agents in the window, the
 * missions in flight, conversations the agent was not part of and proposals awaiting review.
 * Agent names the caller may not see (an HQ agent, to a field agent) read as "HQ".
 */
export function formatBriefing(b: BriefingData): string {
  const lines = [`Last ${b.windowHours} hours (since ${formatUtc(b.since)}).`, ""];
  if (b.events.length) {
    lines.push(`Recent events (${b.events.length}):`);
    for (const e of b.events) {
      lines.push(`- ${formatUtc(e.occurredAt)} ${e.agentName ?? "HQ"} — ${e.kind}${e.outcome !== "info" ? ` (${e.outcome})` : ""}: ${truncate(e.summary, 200)}`);
    }
  } else {
    lines.push(`Recent events: none in the last ${b.windowHours} hours.`);
  }
  lines.push("");
  if (b.missions.length) {
    lines.push(`Active missions (${b.missions.length}):`);
    for (const m of b.missions) lines.push(`- [${m.status}] ${m.title}${m.summary ? ` — ${truncate(m.summary, 160)}` : ""}`);
  } else {
    lines.push("Active missions: none.");
  }
  lines.push("");
  if (b.interactions.length) {
    lines.push(`Conversations you were not part of (${b.interactions.length}):`);
    for (const i of b.interactions) {
      const who = i.speaker ? ` ${i.speaker}` : "";
      lines.push(`- ${formatUtc(i.occurredAt)} ${i.agentName ?? "HQ"} · ${i.channel} ${i.direction}${who}: "${truncate(i.excerpt, 160)}"`);
    }
  } else {
    lines.push("Conversations you were not part of: none.");
  }
  lines.push("");
  const s = b.proposals.suggestions;
  const p = b.proposals.playbookUpdates;
  if (s.count || p.count) {
    lines.push(`Pending proposals: ${plural(s.count, "memory suggestion")}, ${plural(p.count, "playbook update")}.`);
    for (const x of s.items) {
      lines.push(`- suggestion: ${x.contactName ?? "a contact"} · ${x.key} = ${truncate(x.value, 80)} (confidence ${x.confidence.toFixed(2)}, by ${x.proposedByName || "someone"})`);
    }
    for (const x of p.items) lines.push(`- playbook [${x.area}]: ${x.title} (by ${x.agentName ?? "HQ"})`);
  } else {
    lines.push("Pending proposals: none.");
  }
  return lines.join("\n");
}
