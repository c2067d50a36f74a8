import { expect, test } from "@playwright/test";
import { signInAsFounder, unique } from "./helpers";

test("a lost invitation link is replaced from the Users page, and the old one stops working", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signInAsFounder(page);
  const email = `${unique("invitee").toLowerCase().replace(/[^a-z0-9]+/g, ".")}@example.test`;

  await page.goto("/users");
  await page.getByRole("button", { name: "Invite user" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByRole("button", { name: "Create invitation" }).click();
  const lost = await dialog.getByTestId("invite-link").innerText();
  await expect(dialog).toContainText("issue a new link from their row");
  await dialog.getByRole("button", { name: "Done" }).click();

  const row = page.getByTestId("user-row").filter({ hasText: email });
  await expect(row).toContainText("Invite pending");
  await row.getByRole("button", { name: "New link" }).click();
  const again = page.getByRole("dialog", { name: "Send the new invitation link" });
  const fresh = await again.getByTestId("invite-link").innerText();
  expect(fresh).not.toBe(lost);
  await again.getByRole("button", { name: "Done" }).click();

  // the invitee, in a browser of their own
  const theirs = await browser.newContext();
  const invitee = await theirs.newPage();
  const accept = async (link: string) => {
    await invitee.goto(link);
    await expect(invitee.getByText(`invited to the HQ console as ${email}`)).toBeVisible();
    await invitee.getByLabel("Choose a password").fill("invitee passphrase");
    await invitee.getByLabel("Confirm password").fill("invitee passphrase");
    await invitee.getByRole("button", { name: "Accept invitation" }).click();
  };
  // the replaced link says so before a password is chosen
  await invitee.goto(lost);
  await expect(invitee.getByRole("alert").filter({ hasText: "This invitation link no longer works" })).toBeVisible();
  await expect(invitee.getByLabel("Choose a password")).toHaveCount(0);
  await accept(fresh);
  await expect(invitee).not.toHaveURL(/accept-invite/);
  // and so does the used one, opened again
  await invitee.goto(fresh);
  await expect(invitee.getByRole("alert").filter({ hasText: "This invitation link no longer works" })).toBeVisible();
  await theirs.close();

  await page.reload();
  await expect(row).toContainText("Active");
  await expect(row.getByRole("button", { name: "New link" })).toHaveCount(0);
});
