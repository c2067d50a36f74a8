import { describe, expect, it } from "vitest";
import { parseMarkdownEntry } from "@/lib/knowledge/front-matter";
import { createKnowledgeBody, normalizeTag } from "@/lib/knowledge/schemas";

describe("markdown front matter for the knowledge import", () => {
  it("reads title, category and an inline tag list, and keeps the body as the content", () => {
    const parsed = parseMarkdownEntry("---\ntitle: Escalation severity levels\ncategory: escalation\ntags: [escalation, \"sev 1\", 'on-call']\n---\n\nSev 1 means call now.\n\n");
    expect(parsed).toEqual({
      ok: true,
      fields: { title: "Escalation severity levels", category: "escalation", tags: ["escalation", "sev 1", "on-call"], content: "Sev 1 means call now." },
    });
  });

  it("accepts block lists, comma lists, quoted values, CRLF and a BOM", () => {
    const block = parseMarkdownEntry("\uFEFF---\r\ntitle: \"Cron: time zones\"\r\ncategory: tool-guide\r\ntags:\r\n  - cron\r\n  - time-zones\r\n---\r\nBody\r\n");
    expect(block).toMatchObject({ ok: true, fields: { title: "Cron: time zones", tags: ["cron", "time-zones"], content: "Body" } });
    const comma = parseMarkdownEntry("---\ntitle: A\ncategory: template\ntags: sms, follow-up\n---\nB");
    expect(comma).toMatchObject({ ok: true, fields: { tags: ["sms", "follow-up"] } });
  });

  it("takes the first # heading as the title when the front matter has none, or there is none", () => {
    expect(parseMarkdownEntry("---\ncategory: skill-doc\n---\nIntro\n# Booking skill\ntext")).toMatchObject({ ok: true, fields: { title: "Booking skill", category: "skill-doc" } });
    expect(parseMarkdownEntry("# Plain file\n\ntext")).toMatchObject({ ok: true, fields: { title: "Plain file" } });
    expect(parseMarkdownEntry("no heading at all")).toEqual({ ok: true, fields: { content: "no heading at all" } });
  });

  it("refuses unknown keys, duplicate keys, unclosed front matter and lines that are not key: value", () => {
    expect(parseMarkdownEntry("---\ntitle: A\nauthor: Sam\n---\nB")).toEqual({ ok: false, reason: expect.stringContaining("author") });
    expect(parseMarkdownEntry("---\ntitle: A\ntitle: B\n---\nC")).toEqual({ ok: false, reason: expect.stringContaining("twice") });
    expect(parseMarkdownEntry("---\ntitle: A\ncategory: procedure\nbody without end")).toEqual({ ok: false, reason: expect.stringContaining("not closed") });
    expect(parseMarkdownEntry("---\njust words\n---\nC")).toEqual({ ok: false, reason: expect.stringContaining("line 2") });
    expect(parseMarkdownEntry("---\ntags: [a, b\n---\nC")).toEqual({ ok: false, reason: expect.stringContaining("same line") });
  });

  it("hands values to the same validation as POST /knowledge", () => {
    const parsed = parseMarkdownEntry("---\ntitle: T\ncategory: gossip\n---\nC");
    expect(parsed.ok).toBe(true);
    const checked = createKnowledgeBody.safeParse(parsed.ok ? parsed.fields : null);
    expect(checked.success).toBe(false);
    expect(checked.error!.issues[0]!.path).toEqual(["category"]);
  });

  it("normalises tags: lower case, hyphens for spaces, deduplicated", () => {
    expect(normalizeTag("  Field Agents ")).toBe("field-agents");
    expect(normalizeTag("#SMS")).toBe("sms");
    const body = createKnowledgeBody.parse({ title: "t", content: "c", category: "template", tags: ["SMS", "sms", "Follow up"] });
    expect(body.tags).toEqual(["sms", "follow-up"]);
    expect(createKnowledgeBody.safeParse({ title: "t", content: "c", category: "template", tags: ["bad/tag"] }).success).toBe(false);
  });
});
