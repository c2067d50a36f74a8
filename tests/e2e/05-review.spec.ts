import { expect, test } from "@playwright/test";
import { adminHeaders, signInAsFounder, unique } from "./helpers";
import { AuditLogPage } from "./pages/audit-page";
import { ReviewQueuePage } from "./pages/review-page";

const keyFrom = (label: string) => unique(label).toLowerCase().replace(/[^a-z0-9]+/g, "_");

test("the founder approves one suggestion and rejects another with a reason, then sees both on the Audit page", async ({ page }) => {
  await signInAsFounder(page);
  const headers = adminHeaders();

  // arrange: a Sunrise Plumbing contact with two fresh pending suggestions
  const clients = await (await page.request.get("/api/v1/clients", { headers })).json();
  const sunrise = clients.clients.find((c: { name: string }) => c.name === "Sunrise Plumbing");
  expect(sunrise).toBeTruthy();
  const contactRes = await page.request.post("/api/v1/contacts", { headers, data: { name: unique("Avery Test"), clientId: sunrise.id } });
  expect(contactRes.status()).toBe(201);
  const contactId = (await contactRes.json()).contact.id;
  const propose = async (key: string, value: string, confidence: number) => {
    const res = await page.request.post("/api/v1/suggestions", { headers, data: { contactId, key, value, confidence } });
    expect(res.status(), await res.text()).toBe(201);
    const body = await res.json();
    expect(body.suggestion.status).toBe("pending");
    return body.suggestion.id as string;
  };
  const approveKey = keyFrom("gate code needed");
  const rejectKey = keyFrom("favourite music");
  const approveId = await propose(approveKey, "yes, side gate", 0.85);
  const rejectId = await propose(rejectKey, "likes jazz", 0.8);
  const reason = "Not business-relevant for a plumber";

  const review = new ReviewQueuePage(page);
  await test.step("the Review queue shows both with their confidence and proposer", async () => {
    await review.open();
    await expect(review.item(approveId)).toContainText("yes, side gate");
    await expect(review.item(approveId)).toContainText("85%");
    await expect(review.item(rejectId)).toContainText("likes jazz");
    await expect(review.item(rejectId)).toContainText("by admin API key");
    // the current row in full, beside the list
    await review.select(rejectId);
    await expect(review.detail()).toContainText("confidence 80%");
    await expect(review.detail()).toContainText("Proposed by");
  });

  await test.step("approve one with the keyboard", async () => {
    await review.approveWithKeyboard(approveId);
    await expect(review.item(approveId)).toHaveCount(0);
    await expect(review.notice(`Approved “${approveKey}”`)).toBeVisible();
  });

  await test.step("reject the other with a reason", async () => {
    await review.reject(rejectId, reason);
    await expect(review.item(rejectId)).toHaveCount(0);
    await expect(review.notice(`Rejected “${rejectKey}”`)).toBeVisible();
  });

  await test.step("the API agrees once the decisions are sent: one fact, one rejection with the reason", async () => {
    await expect
      .poll(async () => (await (await page.request.get(`/api/v1/suggestions?status=pending&contactId=${contactId}`, { headers })).json()).suggestions.length, { timeout: 20_000 })
      .toBe(0);
    const contact = await (await page.request.get(`/api/v1/contacts/${contactId}`, { headers })).json();
    expect(contact.facts.map((f: { key: string; value: string }) => [f.key, f.value])).toEqual([[approveKey, "yes, side gate"]]);
    const rejected = await (await page.request.get(`/api/v1/suggestions?status=rejected&contactId=${contactId}`, { headers })).json();
    expect(rejected.suggestions.map((s: { id: string; reason: string }) => [s.id, s.reason])).toEqual([[rejectId, reason]]);
  });

  await test.step("an approval with an edited value says what it stored, in the API and among the approved", async () => {
    const editKey = keyFrom("boiler make");
    const editId = await propose(editKey, "worcester", 0.85);
    await review.open();
    await review.select(editId);
    await page.keyboard.press("e");
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("textbox").first().fill("Worcester Bosch Greenstar 30i");
    await page.keyboard.press("Control+Enter");
    await expect(review.notice(`Approved “${editKey}”`)).toBeVisible();
    await expect
      .poll(async () => (await (await page.request.get(`/api/v1/suggestions?status=approved&key=${editKey}`, { headers })).json()).suggestions[0]?.approvedValue, { timeout: 20_000 })
      .toBe("Worcester Bosch Greenstar 30i");
    await page.goto("/review?status=approved");
    await expect(review.item(editId)).toContainText("approved as “Worcester Bosch Greenstar 30i”");
    await review.select(editId);
    await expect(review.detail()).toContainText("edited before approval");
  });

  await test.step("both decisions are on the Audit page", async () => {
    const audit = new AuditLogPage(page);
    await page.goto("/audit");
    await audit.expectOpen();
    await audit.filterArea("Review queue");
    // targets read as "<contact> · <fact key>", not as ids
    const approved = audit.rows("suggestion.approve").filter({ hasText: approveKey });
    const rejected = audit.rows("suggestion.reject").filter({ hasText: rejectKey });
    await expect(approved).toContainText("Approved suggestion");
    await expect(approved).toHaveCount(1);
    await expect(rejected).toHaveCount(1);
    await expect(approved).toContainText("Bridget");
    await rejected.getByRole("button", { name: "Details" }).click();
    await expect(page.getByText(reason)).toBeVisible();
  });
});
