import { expect, test, type APIRequestContext } from "@playwright/test";
import { adminHeaders, signInAsFounder, unique } from "./helpers";
import { HqShell } from "./pages/hq-shell";
import { ConsolidationCard, EscalationsPage, OutcomesPage, ReportsTab } from "./pages/lifecycle-pages";

async function agentKey(request: APIRequestContext, agentId: string) {
  const res = await request.post(`/api/v1/agents/${agentId}/keys`, { headers: adminHeaders(), data: { label: unique("e2e") } });
  expect(res.status()).toBe(201);
  return { authorization: `Bearer ${(await res.json()).key}` };
}

async function demoAgent(request: APIRequestContext, name: string) {
  const res = await request.get("/api/v1/agents", { headers: adminHeaders() });
  const agent = ((await res.json()).agents as { id: string; name: string }[]).find((a) => a.name === name);
  expect(agent).toBeTruthy();
  return agent!;
}

test("escalations: resolve with a captured fix; another client's agent then receives it as a known fix", async ({ page }) => {
  await signInAsFounder(page);
  const marker = unique("Greenleaf");
  const question = `Customers of ${marker} cannot open the invoice payment link`;
  const fix = "Payment links expire after 7 days: generate a fresh link and resend it.";
  const santos = await demoAgent(page.request, "Santos");
  const santosKey = await agentKey(page.request, santos.id);

  await test.step("arrange: Santos escalates through the API", async () => {
    const res = await page.request.post("/api/v1/escalations", { headers: santosKey, data: { question, severity: "high", context: "Two customers this morning" } });
    expect(res.status()).toBe(201);
  });

  const escalations = new EscalationsPage(page);
  await test.step("the open escalation is on the Escalations page; resolve it with the prefilled knowledge form", async () => {
    await page.goto("/agents");
    await new HqShell(page).open("Escalations");
    await escalations.expectOpen();
    await expect(escalations.card(question)).toContainText("Santos");
    await expect(escalations.card(question)).toContainText("High");
    // an empty resolution is refused in the form, and the dialog stays open
    await escalations.card(question).getByRole("button", { name: "Resolve" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Resolve" }).click();
    await expect(dialog.getByText("Write the fix that was given")).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await escalations.resolve(question, fix);
    await expect(escalations.card(question)).toHaveCount(0);
    await escalations.showTab("Resolved");
    await expect(escalations.card(question)).toContainText("Payment links expire after 7 days");
    await expect(escalations.card(question).getByRole("link", { name: "Captured in the knowledge base" })).toBeVisible();
  });

  await test.step("a differently worded escalation from another client's agent gets the fix at once", async () => {
    const client = await page.request.post("/api/v1/clients", { headers: adminHeaders(), data: { name: unique("Harbor Dental") } });
    const other = await page.request.post("/api/v1/agents", {
      headers: adminHeaders(),
      data: { name: unique("Hana"), kind: "field", role: "specialist", clientId: (await client.json()).client.id },
    });
    const key = await agentKey(page.request, (await other.json()).agent.id);
    const res = await page.request.post("/api/v1/escalations", {
      headers: key,
      data: { question: `The ${marker} invoice payment link fails for a customer`, severity: "medium" },
    });
    expect(res.status()).toBe(201);
    const { knownFix } = await res.json();
    expect(knownFix.title).toBe(question);
    expect(knownFix.content).toContain(fix);
    await page.reload();
    await escalations.expectOpen();
    // the tab shown is in the address: the reload is still on Resolved
    await expect(page).toHaveURL(/[?&]status=resolved\b/);
    await escalations.showTab("Open");
    await expect(page.getByTestId("escalation-card").filter({ hasText: "invoice payment link fails" })).toContainText("Known fix offered");
  });

  await test.step("the Dashboard counts escalations answered by a known fix", async () => {
    await new HqShell(page).open("Dashboard");
    const stat = page.getByRole("link", { name: /Answered by a known fix/ });
    await expect(stat).toContainText(/Answered by a known fix\s*[1-9]/);
  });
});

test("resolving: the dialog shows the entry every client will read without the customer's personal data, and can publish nothing", async ({ page }) => {
  await signInAsFounder(page);
  const marker = unique("Invoice batch");
  const client = await page.request.post("/api/v1/clients", { headers: adminHeaders(), data: { name: unique("Birchwood Dental") } });
  const agent = await page.request.post("/api/v1/agents", {
    headers: adminHeaders(),
    data: { name: unique("Bea"), kind: "field", role: "specialist", clientId: (await client.json()).client.id },
  });
  const key = await agentKey(page.request, (await agent.json()).agent.id);
  const question = `customer Jane Roe at 12 Elm St disputes invoice (${marker})`;
  const raised = await page.request.post("/api/v1/escalations", { headers: key, data: { question, severity: "medium" } });
  expect(raised.status()).toBe(201);
  const id = (await raised.json()).escalation.id;

  const escalations = new EscalationsPage(page);
  await page.goto("/escalations");
  await escalations.expectOpen();
  await escalations.card(marker).getByRole("button", { name: "Resolve" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Resolution").fill("Re-issue the invoice from the signed quote.");
  await expect(dialog.getByLabel("Title")).toHaveValue(`A customer disputes invoice (${marker})`);
  await expect(dialog.getByLabel("Content")).toHaveValue(`**Problem:** A customer disputes invoice (${marker})\n\n**Fix:** Re-issue the invoice from the signed quote.`);
  await expect(dialog.getByText("Every client's agents will read this entry")).toBeVisible();
  await expect(dialog).toContainText("a person's name and a street address");
  await dialog.getByLabel(/Publish nothing/).check();
  await dialog.getByRole("button", { name: "Resolve" }).click();
  await expect(dialog).toBeHidden();
  const resolved = (await (await page.request.get("/api/v1/escalations?status=resolved", { headers: adminHeaders() })).json()).escalations;
  expect(resolved.find((e: { id: string }) => e.id === id)).toMatchObject({ status: "resolved", knowledgeEntryId: null });
});

test("open escalations: the most severe first, then the longest waiting; rows name the client; the sidebar counts them", async ({ page }) => {
  await signInAsFounder(page);
  const marker = unique("Sevorder");
  const clientName = unique("Lakeside Clinic");
  const client = await page.request.post("/api/v1/clients", { headers: adminHeaders(), data: { name: clientName } });
  const agent = await page.request.post("/api/v1/agents", {
    headers: adminHeaders(),
    data: { name: unique("Lina"), kind: "field", role: "specialist", clientId: (await client.json()).client.id },
  });
  const key = await agentKey(page.request, (await agent.json()).agent.id);
  for (const [label, severity] of [["a typo on the welcome page", "low"], ["a customer smells gas", "critical"], ["the gate code changed", "high"]]) {
    const res = await page.request.post("/api/v1/escalations", { headers: key, data: { question: `${marker}: ${label}`, severity } });
    expect(res.status()).toBe(201);
  }
  const open = (await (await page.request.get("/api/v1/escalations?status=open", { headers: adminHeaders() })).json()).counts.open;

  const escalations = new EscalationsPage(page);
  await page.goto("/escalations");
  await escalations.expectOpen();
  const cards = page.getByTestId("escalation-card").filter({ hasText: marker });
  await expect(cards).toHaveCount(3);
  await expect(cards.nth(0)).toContainText("a customer smells gas");
  await expect(cards.nth(1)).toContainText("the gate code changed");
  await expect(cards.nth(2)).toContainText("a typo on the welcome page");
  await expect(cards.nth(0)).toContainText(clientName);
  await expect(page.getByTestId("nav-open-escalations").first()).toHaveText(String(open));
});

test("outcomes and reports: a decision awaiting its outcome on the Outcomes page and in the agent's report", async ({ page }) => {
  await signInAsFounder(page);
  const santos = await demoAgent(page.request, "Santos");
  const key = await agentKey(page.request, santos.id);
  const title = unique("Offer Saturday slots to Sunrise customers");

  await test.step("arrange: Santos logs a decision; the consolidation writes yesterday's reports", async () => {
    const res = await page.request.post("/api/v1/agents/me/memories", {
      headers: key,
      data: { tier: "learning", category: "decision", title, confidence: 0.8, surpriseScore: 0.5, decisionContext: { reasoning: "Weekdays are full" } },
    });
    expect(res.status()).toBe(201);
    const run = await page.request.post("/api/v1/jobs/consolidate", { headers: adminHeaders(), data: {} });
    expect(run.status()).toBe(200);
  });

  const outcomes = new OutcomesPage(page);
  await test.step("the Outcomes page lists it by age and links to the decision", async () => {
    await page.goto("/agents");
    await new HqShell(page).open("Outcomes");
    await outcomes.expectOpen();
    const row = outcomes.awaiting().getByRole("row").filter({ hasText: title });
    await expect(row).toContainText("Santos");
    await expect(row).toContainText("0 days");
    await expect(outcomes.rates()).toContainText("Santos");
    await row.getByRole("link", { name: title }).click();
    await expect(page).toHaveURL(new RegExp(`/agents/${santos.id}\\?tab=decisions`));
    await expect(page.getByTestId("decision-row").filter({ hasText: title })).toContainText("Awaiting outcome");
  });

  const reports = new ReportsTab(page);
  await test.step("the Reports tab: yesterday's stored report, and today so far lists the decision awaiting its outcome", async () => {
    await reports.open(santos.id);
    await expect(reports.report()).toContainText("Stored");
    await expect(reports.report()).toContainText("Nightly report — Santos");
    const today = new Date().toLocaleDateString("en-CA");
    await reports.pick(today);
    await expect(reports.report()).toContainText("Live");
    await expect(reports.report()).toContainText("Decisions awaiting outcomes");
    await expect(reports.report()).toContainText(title);
  });
});

test.describe("in a browser ten hours behind UTC", () => {
  test.use({ timezoneId: "Pacific/Honolulu" });

  test("the Dashboard's consolidation: a preview shows what a run would change and changes nothing; a run then does it", async ({ page }) => {
    await signInAsFounder(page);
    const santos = await demoAgent(page.request, "Santos");
    const key = await agentKey(page.request, santos.id);
    const label = "Daily notes archived (older than 7 days)";

    await test.step("arrange: Santos writes a daily note dated ten days ago", async () => {
      const date = new Date(Date.now() - 10 * 24 * 3600 * 1000).toISOString().slice(0, 10);
      const res = await page.request.put("/api/v1/agents/me/documents/daily", { headers: key, data: { content: unique("A quiet day"), date } });
      expect(res.status()).toBe(200);
    });

    const consolidation = new ConsolidationCard(page);
    await test.step("Preview lists the note as due, twice: the first preview changed nothing", async () => {
      await page.goto("/agents");
      await new HqShell(page).open("Dashboard");
      await expect(consolidation.card()).toContainText(/Runs every day at \d\d:\d\d/);
      for (let i = 0; i < 2; i++) {
        await consolidation.preview();
        await expect(consolidation.count(label)).not.toHaveText("0");
      }
    });

    await test.step("the reports' day is the job's calendar day, whatever the browser's time zone", async () => {
      const dry = await page.request.post("/api/v1/jobs/consolidate", { headers: adminHeaders(), data: { dryRun: true } });
      const day = (await dry.json()).reports.date as string;
      const [y, m, d] = day.split("-").map(Number);
      const shown = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }).format(new Date(Date.UTC(y!, m! - 1, d!)));
      await expect(consolidation.report()).toContainText(`Nightly reports written for ${shown}`);
    });

    await test.step("Run now, confirmed, archives it; the last run says so and a new preview finds nothing due", async () => {
      await consolidation.runNow();
      await expect(consolidation.count(label)).not.toHaveText("0");
      await expect(consolidation.card()).toContainText(/Last run that changed something:.*daily notes? archived/);
      await consolidation.preview();
      await expect(consolidation.count(label)).toHaveText("0");
    });
  });
});
