import { expect, test } from "@playwright/test";
import { adminApi, adminHeaders, signInAsFounder } from "./helpers";
import { HqShell } from "./pages/hq-shell";
import { RetrievalPage } from "./pages/retrieval-page";

test("the retrieval playground shows the level, the triggers, every item with its score and source, and the context text", async ({ page }) => {
  await signInAsFounder(page);
  const marker = `Kestrel${Date.now().toString(36)}`;
  const title = `The ${marker} migration needs a Saturday maintenance window`;

  const sybil = await test.step("arrange: a memory of the demo agent Sybil, written through the API", async () => {
    const hq = adminApi();
    const agent = (await hq.agents.list()).agents.find((a) => a.name === "Sybil")!;
    expect(agent).toBeTruthy();
    const { memory } = await hq.memories.write({
      params: { agentId: agent.id },
      body: { tier: "learning", category: "decision", title, content: "Snapshot the database first; roll back by Sunday noon.", confidence: 0.9 },
    });
    expect(memory.title).toBe(title);
    return agent;
  });

  const playground = new RetrievalPage(page);
  await test.step("open the playground from the navigation", async () => {
    await page.goto("/agents");
    await new HqShell(page).open("Retrieval");
    await playground.expectOpen();
  });

  await test.step("a past reference naming no other agent or shared project: level local (own memory first), the memory, the context", async () => {
    await playground.chooseAgent(sybil.id);
    await playground.ask(`Remember when we planned the ${marker} migration?`);
    await expect(playground.level()).toHaveText("local");
    await expect(playground.triggers()).toContainText("Past reference");
    await expect(playground.triggers()).toContainText("remember when");
    const row = playground.item(title);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("Memory");
    await expect(row.getByTestId("retrieved-item-score")).toHaveText(/^(0|1)\.\d{3}$/);
    await expect(playground.items().first()).toContainText(title);
    await expect(playground.context()).toContainText("═══ RETRIEVED CONTEXT ═══");
    await expect(playground.context()).toContainText(`[1] Memory (learning/decision`);
    await expect(playground.context()).toContainText(title);
    await expect(playground.context()).toContainText("Snapshot the database first");
  });

  await test.step("a question that asks for a kind of answer: the conversation turn that holds one says so", async () => {
    const key = await page.request.post(`/api/v1/agents/${sybil.id}/keys`, { headers: adminHeaders(), data: { label: "e2e answer kinds" } });
    expect(key.status()).toBe(201);
    const { key: agentKey } = (await key.json()) as { key: string };
    const thread = `e2e-${marker}`;
    const said = [`Priya: The ${marker} crew meets every Saturday.`, `Priya: With the ${marker} crew I mostly go kayaking.`];
    const res = await page.request.post("/api/v1/interactions/batch", {
      headers: { authorization: `Bearer ${agentKey}` },
      data: { interactions: said.map((content) => ({ channel: "chat", direction: "inbound", speaker: "Priya", content, occurredAt: "2026-03-07T10:00:00Z", conversationId: thread })) },
    });
    expect(res.status(), await res.text()).toBe(201);
    await playground.ask(`What does Priya do for fun with the ${marker} crew?`);
    const kayaking = playground.items().filter({ hasText: "kayaking" });
    await expect(kayaking).toHaveCount(1);
    await expect(kayaking).toContainText("holds the activity asked for");
    await expect(playground.items().filter({ hasText: "every Saturday" })).not.toContainText("asked for");
  });

  await test.step("the system prompt for the topic: current situation and the memory", async () => {
    const prompt = await playground.assemblePrompt();
    await expect(prompt).toContainText("═══ CURRENT SITUATION ═══");
    await expect(prompt).toContainText("═══ RELEVANT MEMORIES ═══");
    await expect(prompt).toContainText(title);
    await expect(prompt).toContainText("═══ LOCKED CONSTANTS ═══");
  });

  await test.step("a greeting needs no context: level none, nothing retrieved", async () => {
    await playground.ask("Thanks, sounds good!");
    await expect(playground.level()).toHaveText("none");
    await expect(playground.items()).toHaveCount(0);
    await expect(playground.noContext()).toBeVisible();
  });

  await test.step("the Dashboard counts the knowledge base and the open items", async () => {
    await new HqShell(page).open("Dashboard");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Retrievals per level" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Never retrieved knowledge" })).toBeVisible();
    // Sybil's decision above has no outcome yet, so at least one decision is waiting
    await expect(page.getByRole("region", { name: "Decisions awaiting outcomes" }).getByRole("heading")).toHaveText(
      /Decisions awaiting outcomes\s*[1-9]\d*/,
    );
  });
});
