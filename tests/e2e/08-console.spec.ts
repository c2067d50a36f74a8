import { expect, test, type APIRequestContext } from "@playwright/test";
import { adminHeaders, FOUNDER, signInAsFounder } from "./helpers";
import { AgentMemoryTabs } from "./pages/agent-memory-tabs";
import { AuditLogPage } from "./pages/audit-page";
import { LoginPage } from "./pages/auth-pages";
import { HqShell } from "./pages/hq-shell";
import { KnowledgePage } from "./pages/knowledge-page";

const token = () => `zq${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function agentId(request: APIRequestContext, name: string) {
  const res = await request.get("/api/v1/agents", { headers: adminHeaders() });
  const agent = ((await res.json()).agents as { id: string; name: string }[]).find((a) => a.name === name);
  expect(agent, `demo agent ${name}`).toBeTruthy();
  return agent!.id;
}

test("signing in returns to the page that was asked for, and never to another site", async ({ page }) => {
  await signInAsFounder(page);
  await page.context().clearCookies();
  const login = new LoginPage(page);

  await page.goto("/audit?area=memory");
  await expect(page).toHaveURL(/\/login\?next=%2Faudit%3Farea%3Dmemory$/);
  await login.signIn(FOUNDER.email, FOUNDER.password);
  await expect(page).toHaveURL(/\/audit\?area=memory$/);
  await expect(page.getByLabel("Area")).toHaveValue("memory");

  await page.context().clearCookies();
  await page.goto("/login?next=//evil.example/steal");
  await login.signIn(FOUNDER.email, FOUNDER.password);
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/agents$/);
});

test("knowledge search says when nothing matches and shows each result's score; tables render", async ({ page, request }) => {
  await signInAsFounder(page);
  const word = token();
  const tag = `t-${word}`;
  const create = async (title: string, content: string) => {
    const res = await request.post("/api/v1/knowledge", { headers: adminHeaders(), data: { title, content, category: "procedure", tags: [tag] } });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()).entry.id as string;
  };
  const tableEntry = await create(`Price table ${word}`, `Prices for ${word}:\n\n| Plan | Price |\n| --- | ---: |\n| Starter | $49 |\n| Growth | $99 |\n\n- [x] checked ~~old~~`);
  await create(`Second ${word}`, `Another published entry about ${word}`);

  const kb = new KnowledgePage(page);
  await kb.open();
  await test.step("each search result shows its score", async () => {
    await page.getByLabel("Tag").selectOption(tag);
    await kb.search(word);
    await expect(kb.row(`Price table ${word}`)).toHaveCount(1);
    const scores = page.getByTestId("knowledge-score");
    await expect(scores.first()).toHaveText(/^\d+\.\d{2,3}$/);
    expect(await scores.count()).toBe(await page.getByTestId("knowledge-row").count());
  });

  await test.step("a search nothing matches says so", async () => {
    // no archived entry carries this tag, so whatever the words, nothing can match
    await page.getByLabel("Status").selectOption("archived");
    await expect(page.getByText("No matching entries")).toBeVisible();
    await expect(page.getByTestId("knowledge-row")).toHaveCount(0);
  });

  await test.step("a markdown table in an entry renders as a table", async () => {
    await page.goto(`/knowledge/${tableEntry}`);
    const table = kb.content().getByRole("table");
    await expect(table).toBeVisible();
    await expect(table.getByRole("columnheader", { name: "Price" })).toBeVisible();
    await expect(table.getByRole("row", { name: /Growth \$99/ })).toBeVisible();
    await expect(kb.content()).not.toContainText("| Plan |");
    await expect(kb.content().locator("del")).toHaveText("old");
  });
});

test("unsaved SOUL and scratchpad edits survive tab and page switches, and leaving the tab asks first", async ({ page, request }) => {
  await signInAsFounder(page);
  const sage = await agentId(request, "Sage");
  const tabs = new AgentMemoryTabs(page);
  const shell = new HqShell(page);
  const draft = `## Current task\nDraft kept ${token()}`;

  await tabs.open(sage, "scratchpad");
  await tabs.scratchpad().fill(draft);
  await tabs.tab("SOUL").click();
  await tabs.soul().fill("# SAGE\n\nA SOUL draft");
  await tabs.tab("Scratchpad").click();
  await expect(tabs.scratchpad()).toHaveValue(draft);
  await expect(page.getByText("Unsaved changes")).toBeVisible();

  // a console link asks first; the edits stay as drafts whichever way it is answered
  await shell.open("Knowledge");
  await expect(shell.leaveDialog()).toContainText("You have not saved");
  await expect(shell.leaveDialog()).toContainText("Scratchpad");
  // the SOUL's edit counts too, though its tab is not the one shown
  await expect(shell.leaveDialog()).toContainText("SOUL");
  await shell.leaveDialog().getByRole("button", { name: "Stay" }).click();
  await expect(tabs.scratchpad()).toHaveValue(draft);
  await shell.open("Knowledge");
  await shell.leaveDialog().getByRole("button", { name: "Leave" }).click();
  await expect(page.getByRole("heading", { name: "Knowledge base", level: 1 })).toBeVisible();
  await page.goBack();
  await expect(tabs.scratchpad()).toHaveValue(draft);
  await tabs.tab("SOUL").click();
  await expect(tabs.soul()).toHaveValue("# SAGE\n\nA SOUL draft");

  // nothing reached the server
  const saved = await (await request.get(`/api/v1/agents/${sage}/documents/working`, { headers: adminHeaders() })).json();
  expect(saved.content).not.toContain("Draft kept");

  // the SOUL preview renders markdown tables too
  await tabs.soul().fill("| Trait | Value |\n| --- | --- |\n| Tone | warm |");
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("document-preview").getByRole("cell", { name: "warm" })).toBeVisible();
  await page.getByRole("button", { name: "Edit" }).click();

  // closing the browser tab with unsaved text asks first
  await tabs.soul().press("End");
  await page.keyboard.type(" more");
  const asked = new Promise<string>((resolve) =>
    page.once("dialog", (d) => {
      resolve(d.type());
      void d.dismiss();
    }),
  );
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe("beforeunload");
});

test("a conflicting scratchpad save shows the diff and merges both edits by default", async ({ page, request }) => {
  await signInAsFounder(page);
  const sam = await agentId(request, "Sam");
  const working = `/api/v1/agents/${sam}/documents/working`;
  const base = "## Current task\nCall the Smiths\n\n## Status\nwaiting\n\n## Next steps\n1. quote";
  const current = await (await request.get(working, { headers: adminHeaders() })).json();
  const put = await request.put(working, { headers: adminHeaders(), data: { content: base, expectedVersion: current.version } });
  expect(put.status()).toBe(200);
  const baseVersion = (await put.json()).version as number;

  const tabs = new AgentMemoryTabs(page);
  await tabs.open(sam, "scratchpad");
  await expect(tabs.scratchpad()).toHaveValue(base);
  await tabs.scratchpad().fill(base.replace("waiting", "quote sent Tuesday"));

  const theirs = `${base}\n2. follow up Friday`;
  expect((await request.put(working, { headers: adminHeaders(), data: { content: theirs, expectedVersion: baseVersion } })).status()).toBe(200);

  await tabs.saveButton().click();
  const dialog = tabs.conflictDialog();
  await expect(dialog).toBeVisible();
  await expect(tabs.conflictRemoved().first()).toContainText("waiting");
  await expect(tabs.conflictAdded().first()).toContainText("quote sent Tuesday");
  const merge = dialog.getByRole("button", { name: "Merge both" });
  await expect(merge).toHaveClass(/bg-indigo-600/);
  await merge.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "merged into version" })).toBeVisible();
  await expect(tabs.scratchpad()).toHaveValue(/quote sent Tuesday[\s\S]*2\. follow up Friday/);
  await tabs.saveButton().click();
  await tabs.expectSaved();
  const saved = await (await request.get(working, { headers: adminHeaders() })).json();
  expect(saved.content).toContain("quote sent Tuesday");
  expect(saved.content).toContain("2. follow up Friday");
  expect(saved.version).toBe(baseVersion + 2);
});

test("the audit log shows agents' memory writes and HQ outcomes with readable actions, linked names, filters and CSV", async ({ page, request }) => {
  await signInAsFounder(page);
  const santos = await agentId(request, "Santos");
  const key = await request.post(`/api/v1/agents/${santos}/keys`, { headers: adminHeaders(), data: { label: "e2e audit" } });
  expect(key.status()).toBe(201);
  const agentAuth = { authorization: `Bearer ${(await key.json()).key}` };
  const title = `Offer the Tuesday slot first ${token()}`;
  const memory = await request.post("/api/v1/agents/me/memories", {
    headers: agentAuth,
    data: { tier: "learning", category: "decision", title, content: "Evening callers book Tuesdays", confidence: 0.8 },
  });
  expect(memory.status(), await memory.text()).toBe(201);
  const decisionId = (await memory.json()).memory.id as string;
  // the founder (an HQ user) scores the decision
  const outcome = await page.request.post(`/api/v1/memories/${decisionId}/outcome`, { data: { result: "booked", success: true } });
  expect(outcome.status(), await outcome.text()).toBe(201);

  const audit = new AuditLogPage(page);
  await page.goto("/audit");
  await audit.expectOpen();
  await audit.filterArea("Agent memory");
  const written = audit.rows("memory.create").filter({ hasText: title });
  await expect(written).toHaveCount(1);
  await expect(written).toContainText("Wrote memory");
  await expect(written).toContainText("Santos");
  await expect(written).toContainText("Sunrise Plumbing");
  const scored = audit.rows("memory.outcome").filter({ hasText: title });
  await expect(scored).toContainText("Recorded decision outcome");
  await expect(scored).toContainText(FOUNDER.name);

  await test.step("a recorded message reads by what it was and links to the agent's conversations", async () => {
    const said = await request.post("/api/v1/interactions", { headers: agentAuth, data: { channel: "sms", direction: "inbound", content: `Can you come Tuesday? ${token()}` } });
    expect(said.status(), await said.text()).toBe(201);
    await audit.filterArea("Conversations");
    const target = audit.rows("interaction.create").first().getByTestId("audit-target");
    await expect(target).toHaveText("Inbound sms message");
    await expect(target).toHaveAttribute("href", `/agents/${santos}?tab=interactions`);
    await audit.filterArea("Agent memory");
  });

  await test.step("filters by actor type and name", async () => {
    await audit.filterActor("HQ users");
    await expect(audit.rows("memory.create").filter({ hasText: title })).toHaveCount(0);
    await expect(audit.rows("memory.outcome").filter({ hasText: title })).toHaveCount(1);
    await audit.filterActor("Agents");
    await audit.filterActorName("Santos");
    await expect(written).toHaveCount(1);
    await expect(audit.rows("memory.outcome")).toHaveCount(0);
  });

  await test.step("filters by dates", async () => {
    const today = new Date();
    const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    const tomorrow = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
    await audit.filterDates(day(today), day(today));
    await expect(written).toHaveCount(1);
    await audit.filterDates(day(tomorrow), day(tomorrow));
    await expect(page.getByText("No entries match these filters")).toBeVisible();
    await audit.filterDates(day(today), day(today));
    await expect(written).toHaveCount(1);
  });

  await test.step("exports exactly the filtered entries as CSV", async () => {
    const href = await audit.exportLink().getAttribute("href");
    expect(href).toContain("actorType=agent");
    const csv = await page.request.get(href!);
    expect(csv.status()).toBe(200);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toContain("occurred_at,actor_type,actor_name");
    expect(text).toContain(title);
    expect(text).toContain("Wrote memory");
    expect(text).not.toContain("memory.outcome");
  });

  await test.step("the target's name links to where it lives", async () => {
    await written.getByRole("link", { name: title }).click();
    await expect(page).toHaveURL(new RegExp(`/agents/${santos}\\?tab=decisions$`));
    await expect(page.getByTestId("decision-row").filter({ hasText: title })).toContainText("booked");
  });
});

test("the review queue bulk-rejects ticked items after listing them, holds the decision with Undo, and keeps the keyboard in dialogs", async ({ page, request }) => {
  await signInAsFounder(page);
  const headers = adminHeaders();
  const clients = await (await request.get("/api/v1/clients", { headers })).json();
  const sunrise = clients.clients.find((c: { name: string }) => c.name === "Sunrise Plumbing");
  const name = `Bulk Tester ${token()}`;
  const contact = await request.post("/api/v1/contacts", { headers, data: { name, clientId: sunrise.id } });
  expect(contact.status()).toBe(201);
  const contactId = (await contact.json()).contact.id as string;
  const propose = async (key: string, value: string) => {
    const res = await request.post("/api/v1/suggestions", { headers, data: { contactId, key, value, confidence: 0.8 } });
    expect(res.status(), await res.text()).toBe(201);
  };
  await propose("gate_code_hint", "blue gate on the left");
  await propose("favourite_team", "the Rays");
  await propose("best_day", "Tuesdays");

  await page.goto("/review");
  await expect(page.getByTestId("review-count")).toHaveText(/pending suggestions?, oldest first$/);
  const search = page.getByRole("searchbox");
  await search.fill(name);
  await expect(page).toHaveURL(/[?&]q=Bulk/);
  const rows = page.getByTestId("suggestion");
  await expect(rows).toHaveCount(3);
  await expect(page.getByTestId("review-count")).toHaveText("3 pending suggestions, oldest first");

  // Esc cancels a dialog without deciding anything
  await rows.filter({ hasText: "best_day" }).click();
  await page.getByTestId("detail-pane").getByRole("button", { name: "Reject" }).click();
  await expect(page.getByRole("dialog", { name: "Reject suggestion" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(rows).toHaveCount(3);

  await page.getByRole("checkbox", { name: /^Select gate_code_hint/ }).check();
  await page.getByRole("checkbox", { name: /^Select favourite_team/ }).check();
  await page.getByRole("button", { name: "Reject selected…" }).click();
  const dialog = page.getByRole("dialog", { name: "Reject 2 suggestions?" });
  await expect(dialog.getByTestId("bulk-plan").getByRole("listitem")).toHaveCount(2);
  await expect(dialog.getByTestId("bulk-plan")).toContainText("Reject “blue gate on the left”");
  await expect(dialog.getByTestId("bulk-plan")).toContainText("Reject “the Rays”");
  await dialog.getByLabel("Reason").fill("Not needed for plumbing visits");
  // Ctrl+Enter submits from inside the text box
  await dialog.getByLabel("Reason").press("Control+Enter");
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("toast").filter({ hasText: "Rejected 2 suggestions" })).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText("best_day");

  // sent once the grace window ends, with the one reason on both
  await expect
    .poll(async () => (await (await request.get(`/api/v1/suggestions?status=rejected&contactId=${contactId}`, { headers })).json()).suggestions.map((s: { reason: string }) => s.reason), { timeout: 20_000 })
    .toEqual(["Not needed for plumbing visits", "Not needed for plumbing visits"]);
});
