import { expect, test } from "@playwright/test";
import { adminHeaders, demoAgentId, signInAsFounder, unique } from "./helpers";
import { AgentMemoryTabs } from "./pages/agent-memory-tabs";

test("a transcript sent in one call shows as one conversation, in the order it was said", async ({ page }) => {
  await signInAsFounder(page);
  const sage = await demoAgentId("Sage");
  const thread = unique("e2e-call").replace(/\s+/g, "-");
  const said = ["Hi, is the Thursday slot still open?", "It is — 2 pm or 4 pm?", "4 pm please.", "Booked: Thursday 4 pm."];

  await test.step("the agent records the call in one batch, every turn with the call's time", async () => {
    const key = await page.request.post(`/api/v1/agents/${sage}/keys`, { headers: adminHeaders(), data: { label: "e2e transcript" } });
    expect(key.status()).toBe(201);
    const { key: agentKey } = (await key.json()) as { key: string };
    const res = await page.request.post("/api/v1/interactions/batch", {
      headers: { authorization: `Bearer ${agentKey}` },
      data: {
        interactions: said.map((content, i) => ({
          channel: "call",
          direction: i % 2 ? "outbound" : "inbound",
          speaker: i % 2 ? "Sage" : "Jordan Reyes",
          content,
          occurredAt: "2026-03-05T15:00:00Z",
          conversationId: thread,
          externalId: `${thread}-${i}`,
        })),
      },
    });
    expect(res.status(), await res.text()).toBe(201);
  });

  await test.step("the agent's Interactions tab lists it as one conversation, titled by the caller; opened, it reads turn by turn", async () => {
    await new AgentMemoryTabs(page).open(sage, "interactions");
    const row = page.getByTestId("conversation-row").filter({ hasText: "Booked: Thursday 4 pm." });
    await expect(row).toBeVisible({ timeout: 30_000 });
    await expect(row).toContainText("Jordan Reyes");
    await expect(row).toContainText("4 messages");
    await row.click();
    const chat = page.getByTestId("chat-thread");
    await expect(chat).toContainText(`thread ${thread}`);
    await expect(chat.getByTestId("chat-turn")).toHaveCount(4);
    await expect(chat.getByTestId("chat-text")).toHaveText(said);
    await expect(chat.getByTestId("chat-turn").first()).toHaveAttribute("data-direction", "inbound");
    await expect(chat.getByTestId("chat-turn").nth(1)).toHaveAttribute("data-direction", "outbound");
  });
});
