import { describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { getDatabase } from "@/lib/db";
import { seedDemoIfEmpty } from "@/lib/demo/seed";
import { admin } from "../helpers/api";

describe("migrations and the demo", () => {
  it("records applied migrations and applies nothing twice", async () => {
    const db = await getDatabase();
    const recorded = await db.query<{ version: string }>("select version from mhq.schema_migrations order by version");
    expect(recorded.length).toBeGreaterThan(0);
    expect(await migrate(db)).toEqual([]);
  });

  it("returns int8, jsonb, arrays and timestamps alike on both transports", async () => {
    const db = await getDatabase();
    const [row] = await db.query<Record<string, unknown>>(
      "select count(*) as n, $1::jsonb as j, array['a','b']::text[] as a, now() as t",
      [JSON.stringify({ k: [1, "x"] })],
    );
    expect(row).toEqual({ n: 0 + Number(row!.n), j: { k: [1, "x"] }, a: ["a", "b"], t: expect.any(Date) });
    expect(typeof row!.n).toBe("number");
  });

  it("loads the seeds' demo into an empty database once", async () => {
    const db = await getDatabase();
    expect(await seedDemoIfEmpty(db)).toBe(true);
    expect(await seedDemoIfEmpty(db)).toBe(false);
    const agents = (await admin.get("/api/v1/agents")).body.agents as { name: string; kind: string; clientName: string | null }[];
    expect(agents.map((a) => a.name).sort()).toEqual(expect.arrayContaining(["Sage", "Saber", "Sam", "Santos", "Sybil"]));
    expect(agents.find((a) => a.name === "Santos")).toMatchObject({ kind: "field", clientName: "Sunrise Plumbing" });
    const constants = (await admin.get("/api/v1/locked-constants")).body.constants as { value: string }[];
    expect(constants.map((c) => c.value)).toEqual(
      expect.arrayContaining(["$997", "$1997", "$4997", "(863) 337-3705", "link.aiserviceco.com/discovery"]),
    );
    // with the local embedder the demo arrives fully embedded: nothing waits for re-embedding
    const status = await admin.get("/api/v1/embeddings/backfill");
    expect(status.body.targets).toEqual(expect.arrayContaining([{ table: "interactions", remaining: 0 }]));
    expect(status.body.remaining).toBe(0);
  });
});
