import { expect, test, type APIRequestContext } from "@playwright/test";
import { adminHeaders, signInAsFounder } from "./helpers";
import { sunriseId } from "./volume";

const letters = () => (Date.now().toString(36) + Math.random().toString(36).slice(2, 5)).replace(/[0-9]/g, (d) => "abcdefghij"[Number(d)]!);

/** An agent with a key, made through the API as an admin. */
async function agentKey(request: APIRequestContext, input: Record<string, unknown>) {
  const made = await request.post("/api/v1/agents", { headers: adminHeaders(), data: { name: `E2E ${letters()}`, ...input } });
  expect(made.status()).toBe(201);
  const key = await request.post(`/api/v1/agents/${(await made.json()).agent.id}/keys`, { headers: adminHeaders(), data: { label: "e2e" } });
  return { authorization: `Bearer ${(await key.json()).key as string}` };
}

test("an opt-out by a client's manager that HQ's records still name is listed for HQ, and erased from them from the contact's page", async ({ page }) => {
  test.setTimeout(120_000);
  await signInAsFounder(page);
  const request = page.request;
  const clientId = await sunriseId(request);
  const fieldManager = await agentKey(request, { kind: "field", role: "manager", clientId });
  const writer = await agentKey(request, { kind: "internal", role: "specialist", kbAccess: "write" });
  const person = `Rosalind ${letters().replace(/^./, (c) => c.toUpperCase())}`;

  const contact = await request.post("/api/v1/contacts", { headers: fieldManager, data: { name: person } });
  expect(contact.status()).toBe(201);
  const id = (await contact.json()).contact.id as string;
  const entry = await request.post("/api/v1/knowledge", { headers: writer, data: { title: `Referrals from ${person}`, content: `Thank ${person} after each referred job.`, category: "procedure" } });
  expect(entry.status()).toBe(201);
  expect((await request.post(`/api/v1/contacts/${id}/opt-out`, { headers: fieldManager })).status()).toBe(200);

  // the dashboard says some opt-outs wait for HQ, and links to them
  await page.goto("/dashboard");
  const waiting = page.getByRole("status").filter({ hasText: "to finish in HQ's records" });
  await expect(waiting).toBeVisible();
  await waiting.getByRole("link", { name: /Show/ }).click();
  await expect(page).toHaveURL(/\/contacts\?hqErasure=pending$/);
  // as does Contacts, which lists them
  await page.goto("/contacts");
  await waiting.getByRole("button", { name: /Show/ }).click();
  await expect(page).toHaveURL(/[?&]hqErasure=pending\b/);
  await page.getByRole("link", { name: person }).click();

  // the contact's page shows what was kept, and erases it behind the name typed out
  const card = page.getByTestId("hq-erasure");
  await expect(card).toContainText(person);
  await card.getByRole("button", { name: "Erase from HQ's records…" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("textbox").fill(person);
  await dialog.getByRole("button", { name: "Erase from HQ's records", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Erased from HQ's records" })).toBeVisible();
  await expect(card).toHaveCount(0);

  const after = await request.get(`/api/v1/knowledge/${(await entry.json()).entry.id}`, { headers: adminHeaders() });
  expect((await after.json()).entry).toMatchObject({ title: "Referrals from [erased]", content: "Thank [erased] after each referred job." });
});
