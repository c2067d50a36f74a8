import { expect, test } from "@playwright/test";
import { adminHeaders, signInAsFounder } from "./helpers";
import { sunriseId } from "./volume";

const letters = () => (Date.now().toString(36) + Math.random().toString(36).slice(2, 5)).replace(/[0-9]/g, (d) => "abcdefghij"[Number(d)]!);

test("an HQ admin corrects a contact's profile and writes and changes its facts from the contact's page", async ({ page }) => {
  test.setTimeout(120_000);
  await signInAsFounder(page);
  const clientId = await sunriseId(page.request);
  const person = `Marisol ${letters().replace(/^./, (c) => c.toUpperCase())}`;
  const made = await page.request.post("/api/v1/contacts", { headers: adminHeaders(), data: { name: person, phone: `863-${String(200 + Math.floor(Math.random() * 700))}-${String(1000 + Math.floor(Math.random() * 9000))}`, clientId } });
  expect(made.status()).toBe(201);
  const id = (await made.json()).contact.id as string;
  await page.goto(`/contacts/${id}`);

  // the profile: only what changed is sent; clearing every way to recognise them is refused before sending
  await page.getByRole("button", { name: "Edit profile" }).click();
  const profile = page.getByRole("dialog", { name: "Edit profile" });
  await profile.getByLabel("Email").fill(`${person.split(" ")[1]!.toLowerCase()}@example.test`);
  await profile.getByLabel("Stage").selectOption("booked");
  await profile.getByLabel("Summary").fill("Prefers texts; has a dog that barks at the door.");
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(profile).toBeHidden();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  await expect(page.getByText(`${person.split(" ")[1]!.toLowerCase()}@example.test`)).toBeVisible();
  await expect(page.getByText("Prefers texts; has a dog that barks at the door.")).toBeVisible();
  await expect(page.getByText("Booked", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Edit profile" }).click();
  for (const label of ["Name", "Phone", "Email"]) await profile.getByLabel(label).fill("");
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(profile.getByRole("alert")).toContainText("Keep at least one of name, phone or email");
  await profile.getByRole("button", { name: "Cancel" }).click();

  // a fact, then a change to it: the first stays as history
  await page.getByRole("button", { name: "Write a fact" }).click();
  const write = page.getByRole("dialog", { name: "Write a fact" });
  await write.getByLabel("Key").fill("preferred_time");
  await write.getByLabel("Value").fill("Tuesday mornings");
  // a new fact's confidence is chosen, never assumed
  await write.getByRole("button", { name: "Save fact" }).click();
  await expect(write.getByText("A whole number from 70 to 100")).toBeVisible();
  await write.getByLabel("Confidence (%)").fill("90");
  await write.getByRole("button", { name: "Save fact" }).click();
  await expect(write).toBeHidden();
  await expect(page.getByTestId("fact-row").filter({ hasText: "preferred_time" })).toContainText("Tuesday mornings");

  await page.getByRole("button", { name: "Change preferred_time" }).click();
  const change = page.getByRole("dialog", { name: "Change preferred_time" });
  await expect(change.getByLabel("Value")).toHaveValue("Tuesday mornings");
  // a change starts from the fact's own confidence
  await expect(change.getByLabel("Confidence (%)")).toHaveValue("90");
  // personal data is refused as it is from an agent, and the dialog keeps the text
  await change.getByLabel("Value").fill("Card 4111 1111 1111 1111");
  await change.getByRole("button", { name: "Save fact" }).click();
  await expect(change.getByRole("alert")).toBeVisible();
  await expect(change.getByLabel("Value")).toHaveValue("Card 4111 1111 1111 1111");
  await change.getByLabel("Value").fill("Thursday afternoons");
  await change.getByRole("button", { name: "Save fact" }).click();
  await expect(change).toBeHidden();
  // the focus is back where the change began
  await expect(page.getByRole("button", { name: "Change preferred_time" })).toBeFocused();
  await expect(page.locator('[data-testid="fact-row"][data-status="superseded"]')).toContainText("Tuesday mornings");
  await expect(page.locator('[data-testid="fact-row"]:not([data-status="superseded"])')).toContainText("Thursday afternoons");

  // what the audit log holds of it
  const audit = await page.request.get("/api/v1/audit?action=contact.update,fact&limit=50", { headers: adminHeaders() });
  const actions = ((await audit.json()).entries as { action: string; targetId: string | null }[]).filter((e) => e.targetId === id).map((e) => e.action);
  expect(actions).toEqual(expect.arrayContaining(["contact.update", "fact.write", "fact.refused"]));
});
