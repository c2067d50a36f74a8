import { expect, test } from "@playwright/test";
import { E2E_SUPABASE_AUTH_PORT } from "../../playwright.config";
import { adminHeaders } from "./helpers";
import { HqShell } from "./pages/hq-shell";
import { LoginPage } from "./pages/auth-pages";

// HQ signing in through Supabase Auth (a local stand-in of its Auth API, real signed tokens), on a
// server of the same build configured with NEXT_PUBLIC_SUPABASE_URL/ANON_KEY at run time. The users
// are tests/helpers/supabase-auth-server.ts's E2E_SUPABASE_USERS.
const AUTH = `http://127.0.0.1:${E2E_SUPABASE_AUTH_PORT}`;

test("Supabase sign-in: an invited curator by password, a viewer by magic link, a stranger refused", async ({ page, request }) => {
  const shell = new HqShell(page);
  const login = new LoginPage(page);

  await test.step("HQ invites the curator's address", async () => {
    const res = await request.post("/api/v1/hq-users", {
      headers: adminHeaders(),
      data: { email: "invited.curator@example.test", role: "curator", name: "Invited Curator" },
    });
    expect(res.status()).toBe(201);
  });

  await test.step("the console sends a visitor to the Supabase sign-in, not to setup", async () => {
    await page.goto("/");
    await login.expectOpen();
    await expect(page.getByRole("button", { name: "Email me a sign-in link" })).toBeVisible();
  });

  await test.step("the invited curator signs in with a password and lands as Curator", async () => {
    await login.signIn("invited.curator@example.test", "supabase-pass-1");
    await expect(page).toHaveURL(/\/agents$/);
    await shell.expectSignedInAs("Invited Curator", "Curator");
    const cookies = await page.context().cookies();
    expect(cookies.some((c) => /^sb-.+-auth-token/.test(c.name))).toBe(true);
    expect(cookies.some((c) => c.name === "mhq_session")).toBe(false);
    await shell.signOut();
    await login.expectOpen();
  });

  await test.step("a user whose app_metadata.mhq_role is viewer signs in by magic link and lands as Viewer", async () => {
    await page.getByLabel("Email").fill("metadata.viewer@example.test");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect(page.getByText(/a sign-in link is on its way/)).toBeVisible();
    const { outbox } = (await (await request.get(`${AUTH}/__outbox`)).json()) as { outbox: { email: string; tokenHash: string; redirectTo: string }[] };
    const mail = outbox.filter((m) => m.email === "metadata.viewer@example.test").at(-1)!;
    await page.goto(`${mail.redirectTo}?token_hash=${mail.tokenHash}&type=email`);
    await expect(page).toHaveURL(/\/agents$/);
    await shell.expectSignedInAs("Metadata Viewer", "Viewer");
    await shell.signOut();
    await login.expectOpen();
  });

  await test.step("a Supabase user HQ does not know is refused with a clear page", async () => {
    await login.signIn("stranger@example.test", "supabase-pass-3");
    await expect(page).toHaveURL(/\/signin-refused\?reason=unmapped$/);
    await expect(page.getByRole("heading", { name: "This account has no access to Memory HQ" })).toBeVisible();
    await expect(page.getByText(/Ask an HQ admin to invite your email address/)).toBeVisible();
    await page.goto("/agents");
    await login.expectOpen();
  });

  await test.step("a wrong password is an error on the form", async () => {
    await login.signIn("invited.curator@example.test", "not-the-password");
    await expect(login.error()).toHaveText("Wrong email or password");
  });
});
