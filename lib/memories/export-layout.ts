import type { MemoryRow } from "./queries";

// The file layout of an agent's memory, so a file-based agent can sync from Memory HQ:
//   memory/core/{identity,client,procedures,preferences,principles,team}.md  (one file per category)
//   memory/working/{projects,threads}/<slug>.md and memory/working/pending.md (commitments)
//   memory/learning/{decisions,corrections,insights,outcomes,patterns,strategies,lessons}/<slug>.md
// plus the agent documents: SOUL.md, WORKING.md and memory/daily/<date>.md.

type ExportMemory = Pick<
  MemoryRow,
  | "id"
  | "scope"
  | "tier"
  | "category"
  | "title"
  | "content"
  | "confidence"
  | "tags"
  | "status"
  | "decisionContext"
  | "outcome"
  | "relatedIds"
  | "expiresAt"
  | "createdAt"
  | "createdByName"
>;

export interface ExportInput {
  agent: { id: string; name: string; kind: string; role: string; clientName: string | null };
  soul: string;
  working: string;
  daily: { date: string; content: string }[];
  memories: ExportMemory[];
  exportedAt: Date;
}

const CORE_FILES: Record<string, string> = {
  identity: "identity.md",
  client: "client.md",
  procedure: "procedures.md",
  preference: "preferences.md",
  principle: "principles.md",
  team: "team.md",
};

const FOLDERS: Record<string, string> = {
  project: "projects",
  thread: "threads",
  decision: "decisions",
  correction: "corrections",
  insight: "insights",
  outcome: "outcomes",
  pattern: "patterns",
  strategy: "strategies",
  lesson: "lessons",
};

const iso = (d: Date | string) => new Date(d).toISOString();

export function fileSlug(title: string, id: string): string {
  const slug = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50)
    .replace(/-+$/, "");
  return `${slug || "memory"}-${id.slice(0, 8)}`;
}

function details(m: ExportMemory): string {
  const parts: string[] = [];
  if (m.content) parts.push(m.content.trim());
  const d = m.decisionContext;
  if (d) {
    const lines = [`- Reasoning: ${d.reasoning}`];
    if (d.alternatives?.length) lines.push(`- Alternatives: ${d.alternatives.join("; ")}`);
    if (d.assumptions?.length) lines.push(`- Assumptions: ${d.assumptions.join("; ")}`);
    if (d.killCriteria) lines.push(`- Kill criteria: ${d.killCriteria}`);
    parts.push(`### Decision context\n${lines.join("\n")}`);
  }
  const o = m.outcome;
  if (o) {
    const lines = [`- Result: ${o.result}`, `- Success: ${o.success ? "yes" : "no"}`, `- Scored: ${o.scoredAt}`];
    if (o.notes) lines.push(`- Notes: ${o.notes}`);
    parts.push(`### Outcome\n${lines.join("\n")}`);
  }
  return parts.join("\n\n");
}

function frontMatter(m: ExportMemory): string {
  const lines = [
    `id: ${m.id}`,
    `tier: ${m.tier}`,
    `category: ${m.category}`,
    `scope: ${m.scope}`,
    `status: ${m.status}`,
    `confidence: ${m.confidence}`,
    `tags: [${m.tags.map((t) => JSON.stringify(t)).join(", ")}]`,
    `created: ${iso(m.createdAt)}`,
    `author: ${JSON.stringify(m.createdByName)}`,
  ];
  if (m.relatedIds.length) lines.push(`related: [${m.relatedIds.join(", ")}]`);
  if (m.expiresAt) lines.push(`expires: ${iso(m.expiresAt)}`);
  return `---\n${lines.join("\n")}\n---\n`;
}

const section = (m: ExportMemory) =>
  `## ${m.title}\n<!-- id: ${m.id} · confidence: ${m.confidence} · status: ${m.status} -->\n\n${details(m)}`.trimEnd();

/** The files of the export, path → markdown. */
export function buildMemoryFolder(input: ExportInput): Record<string, string> {
  const { agent } = input;
  const files: Record<string, string> = {};
  files["SOUL.md"] = input.soul;
  files["WORKING.md"] = input.working;
  for (const note of input.daily) files[`memory/daily/${note.date}.md`] = note.content;

  const identity = [
    `# ${agent.name}`,
    "",
    `- Agent ID: ${agent.id}`,
    `- Kind: ${agent.kind}`,
    `- Role: ${agent.role}`,
    ...(agent.clientName ? [`- Client: ${agent.clientName}`] : []),
    `- Exported: ${iso(input.exportedAt)}`,
  ].join("\n");
  const core = new Map<string, string[]>([["identity.md", [identity]]]);
  const pending: string[] = [];

  for (const m of input.memories) {
    if (m.tier === "core") {
      const file = CORE_FILES[m.category] ?? `${m.category}.md`;
      core.set(file, [...(core.get(file) ?? [`# ${m.category[0]!.toUpperCase()}${m.category.slice(1)}`]), section(m)]);
    } else if (m.category === "commitment") {
      pending.push(section(m));
    } else {
      const folder = FOLDERS[m.category] ?? m.category;
      files[`memory/${m.tier}/${folder}/${fileSlug(m.title, m.id)}.md`] = `${frontMatter(m)}\n# ${m.title}\n\n${details(m)}\n`;
    }
  }
  for (const [file, parts] of core) files[`memory/core/${file}`] = `${parts.join("\n\n")}\n`;
  files["memory/working/pending.md"] = `# Pending commitments\n\n${pending.length ? pending.join("\n\n") : "None."}\n`;
  return files;
}
