import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { seedDemoIfEmpty } from "@/lib/demo/seed";
import { admin } from "../helpers/api";

describe("the memory manager's demo", () => {
  it("fills the Review queue for Sunrise Plumbing: a clean suggestion, a low-confidence one, and their source text", async () => {
    expect(await seedDemoIfEmpty(await getDatabase())).toBe(true);
    const contacts = await admin.get("/api/v1/contacts");
    expect(contacts.body.contacts.map((c: any) => c.name)).toEqual(expect.arrayContaining(["Dana Whitfield", "Marcus Bell", "Priya Natarajan"]));
    expect(contacts.body.contacts.every((c: any) => c.clientName === "Sunrise Plumbing")).toBe(true);

    const queue = await admin.get("/api/v1/suggestions?status=pending");
    expect(queue.status).toBe(200);
    const byKey = Object.fromEntries(queue.body.suggestions.map((s: any) => [s.key, s]));
    expect(byKey.water_heater).toMatchObject({
      verdict: "review",
      proposedByName: "Santos",
      contact: { name: "Dana Whitfield" },
      interaction: { channel: "sms", excerpt: expect.stringContaining("water heater") },
    });
    expect(byKey.water_heater.flags.map((f: any) => f.code)).toEqual(["below_auto_approve"]);
    expect(byKey.budget.flags.map((f: any) => f.code)).toContain("low_confidence");
    expect(byKey.preferred_channel.currentFact).toMatchObject({ value: "phone calls", confidence: 0.8 });
    expect(byKey.pets.flags.map((f: any) => f.code)).toContain("not_allowlisted");
  });
});
