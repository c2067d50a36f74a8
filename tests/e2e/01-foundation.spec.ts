import { expect, test } from "@playwright/test";
import { FOUNDER, unique } from "./helpers";
import { AgentDetailPage } from "./pages/agent-detail-page";
import { AgentsPage } from "./pages/agents-page";
import { AuditLogPage } from "./pages/audit-page";
import { LoginPage, SetupPage } from "./pages/auth-pages";
import { HqShell } from "./pages/hq-shell";

const DEMO_AGENTS = ["Sybil", "Saber", "Sam", "Sage", "Santos"];

test("first admin, agents, a key issued and revoked, locked constants and the audit log", async ({ page, request }) => {
  const shell = new HqShell(page);
  const agents = new AgentsPage(page);
  const detail = new AgentDetailPage(page);

  await test.step("a fresh HQ sends the visitor to /setup", async () => {
    await page.goto("/");
    await new SetupPage(page).expectOpen();
  });

  await test.step("create the first admin and land on the Dashboard's first-run checklist; Agents lists the demo agents", async () => {
    await new SetupPage(page).createAdmin(FOUNDER);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId("first-run-checklist")).toBeVisible();
    await expect(page.getByTestId("first-run-checklist")).toContainText("Get started");
    await shell.expectSignedInAs(FOUNDER.name, "Admin");
    await shell.open("Agents");
    await agents.expectOpen();
    for (const name of DEMO_AGENTS) await expect(agents.row(name)).toHaveCount(1);
    await expect(page.getByRole("cell", { name: /Sunrise Plumbing/ }).first()).toBeVisible();
  });

  const login = new LoginPage(page);
  await test.step("sign out, then setup is closed and sign-in works with the same credentials", async () => {
    await shell.signOut();
    await login.expectOpen();
    // the console is closed to signed-out visitors, and setup is no longer offered
    await page.goto("/agents");
    await login.expectOpen();
    await page.goto("/setup");
    await login.expectOpen();

    await login.signIn(FOUNDER.email, "not the password");
    await expect(login.error()).toHaveText("Wrong email or password");
    await login.signIn(FOUNDER.email, FOUNDER.password);
    await agents.expectOpen();
    await shell.expectSignedInAs(FOUNDER.name, "Admin");
  });

  const agentName = unique("Scout");
  const keyLabel = "e2e laptop";
  let agentId = "";
  let key = "";

  await test.step("create a field agent for Sunrise Plumbing", async () => {
    await agents.createAgent({ name: agentName, kind: "field", role: "specialist", client: "Sunrise Plumbing" });
    await detail.expectOpen(agentName);
    agentId = detail.id();
    await expect(page.getByText("Client: Sunrise Plumbing")).toBeVisible();
    await expect(page.getByRole("tab", { name: "Overview & keys", selected: true })).toBeVisible();
  });

  await test.step("issue a key in the UI; the agent authenticates with it", async () => {
    key = await detail.issueKey(keyLabel);
    expect(key).toMatch(/^mhq_[A-Za-z0-9_-]{20,}$/);
    await expect(detail.keyRow(keyLabel)).toContainText("Active");
    await expect(detail.keyRow(keyLabel)).toContainText(`${key.slice(0, 12)}…`);

    const res = await request.get("/api/v1/agents/me", { headers: { authorization: `Bearer ${key}` } });
    expect(res.status()).toBe(200);
    const body = await res.json();
    expect(body.agent).toMatchObject({ id: agentId, name: agentName, kind: "field", clientName: "Sunrise Plumbing" });
  });

  await test.step("raise the agent's limits on its page (an importer); the agent is held to its own", async () => {
    await expect(detail.limits()).toContainText("100 per second");
    await expect(detail.limits()).toContainText("default");
    await detail.setLimits({ "Waiting at once": "128", "Requests per second": "2", Burst: "1" });
    await expect(detail.limits()).toContainText("2 per second");
    await expect(detail.limits()).toContainText("128 requests");
    await expect(detail.limits().getByText("set for this agent")).toHaveCount(3);
    const me = async () => request.get("/api/v1/agents/me", { headers: { authorization: `Bearer ${key}` } });
    expect((await (await me()).json()).agent.limits).toMatchObject({ requestsPerSecond: 2, burst: 1, maxWaiting: 128 });
    // that call told admission the key's own limits: one more call spends its burst of one, and the
    // next, as quick, is over its rate of two a second — 429 with the RateLimit fields
    expect((await me()).status()).toBe(200);
    const refused = await me();
    expect(refused.status()).toBe(429);
    expect(refused.headers()["ratelimit-policy"]).toContain('"rate";q=1;w=1');
    await detail.setLimits({ "Requests per second": "", Burst: "" });
    await expect(detail.limits()).toContainText("100 per second");
    await expect(detail.limits().getByText("set for this agent")).toHaveCount(1);
  });

  await test.step("revoke the key in the UI; the same call is refused", async () => {
    await detail.revokeKey(keyLabel);
    await expect(detail.keyRow(keyLabel)).toContainText("Revoked");
    await expect(detail.keyRow(keyLabel).getByRole("button", { name: "Revoke" })).toHaveCount(0);

    const res = await request.get("/api/v1/agents/me", { headers: { authorization: `Bearer ${key}` } });
    expect(res.status()).toBe(401);
    expect((await res.json()).error.code).toBe("unauthorized");
  });

  await test.step("locked constants show the escalation number", async () => {
    await shell.open("Locked constants");
    await expect(page.getByRole("heading", { name: "Locked constants", level: 1 })).toBeVisible();
    await expect(page.getByTestId("constants-escalation")).toContainText("(863) 337-3705");
  });

  await test.step("the audit log lists the agent's creation and the key's revocation", async () => {
    await shell.open("Audit");
    const audit = new AuditLogPage(page);
    await audit.expectOpen();
    const created = audit.rows("agent.create").filter({ hasText: agentName });
    await expect(created).toHaveCount(1);
    await expect(created).toContainText(FOUNDER.name);
    await expect(created).toContainText("Sunrise Plumbing");
    await expect(audit.rows("agent_key.revoke").filter({ hasText: agentName })).toHaveCount(1);

    // newest first: the revocation comes before the issue, which comes before the creation
    const actions = await audit.rows().evaluateAll((rows) => rows.map((r) => r.getAttribute("data-action")));
    const revokeAt = actions.indexOf("agent_key.revoke");
    expect(revokeAt).toBeGreaterThanOrEqual(0);
    expect(revokeAt).toBeLessThan(actions.indexOf("agent_key.issue"));
    expect(actions.indexOf("agent_key.issue")).toBeLessThan(actions.indexOf("agent.create"));

    // the details of an entry expand, and the filter narrows the log to one action prefix
    await created.getByRole("button", { name: "Details" }).click();
    await expect(page.locator("pre").filter({ hasText: `"name": "${agentName}"` })).toBeVisible();
    await audit.filterArea("Locked constants");
    await expect(audit.rows("agent.create")).toHaveCount(0);
    await audit.filterArea("Agents & keys");
    await expect(audit.rows("agent_key.revoke").filter({ hasText: agentName })).toHaveCount(1);
  });
});
