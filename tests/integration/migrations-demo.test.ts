import { cpSync, mkdtempSync, readdirSync, rmSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, listMigrations, migrate } from "@/lib/db/migrate";
import { readSchemaFiles } from "@/lib/db/schema-diff";
import { getDatabase } from "@/lib/db";
import { seedDemoIfEmpty } from "@/lib/demo/seed";
import { admin } from "../helpers/api";

describe("migrations and the demo", () => {
  it("records applied migrations and applies nothing twice", async () => {
    const db = await getDatabase();
    const recorded = await db.query<{ version: string }>("select version from mhq.schema_migrations order by version");
    expect(recorded.length).toBeGreaterThan(0);
    expect(await migrate(db)).toEqual({ migrations: [] });
  });

  it("has every live function and view of public and mhq in exactly one schema file, and nothing else", async () => {
    const db = await getDatabase();
    const live = await db.query<{ name: string }>(
      `select n.nspname || '.' || p.proname as name
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'mhq')
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
       union all
       select schemaname || '.' || viewname from pg_views where schemaname in ('public', 'mhq')`,
    );
    const files = (await readSchemaFiles()).map((f) => path.basename(f.path, ".sql"));
    // one signature per name: an overload would be a second live definition
    expect(live.map((r) => r.name).sort()).toEqual(files.sort());
    expect(live.filter((r) => /rrf_fuse|hybrid_search_/.test(r.name))).toEqual([]);
  });

  it("refuses, changing nothing, a database whose applied migration was edited or is unknown", async () => {
    const db = await getDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), "mhq-migrations-"));
    try {
      cpSync(MIGRATIONS_DIR, dir, { recursive: true });
      const first = readdirSync(dir).sort()[0]!;
      appendFileSync(path.join(dir, first), "\n-- an edit after the fact\n");
      await expect(migrate(db, { migrationsDir: dir })).rejects.toThrow(
        `Migration ${first} has changed since it was applied to this database`,
      );
      rmSync(path.join(dir, first));
      await expect(migrate(db, { migrationsDir: dir })).rejects.toThrow(
        `The database has migration ${first.replace(/\.sql$/, "")}, which this release does not have`,
      );
      // nothing was changed: the real files still find the database up to date
      expect(await migrate(db)).toEqual({ migrations: [] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("takes a migration as applied whose checksum an earlier release recorded with its data move beside it", async () => {
    const db = await getDatabase();
    const version = "20261130100000";
    const file = (await listMigrations()).find((m) => m.version === version)!;
    // the checksum of that migration and its follow-up file, as the release before recorded it
    await db.query("update mhq.schema_migrations set checksum = $2 where version = $1", [
      version,
      "056022dbe6261b3999e3ebad65cb1ce391a0d5191b202c67d23b0e145a38282d",
    ]);
    expect(await migrate(db)).toEqual({ migrations: [] });
    const [row] = await db.query<{ checksum: string }>("select checksum from mhq.schema_migrations where version = $1", [version]);
    expect(row!.checksum).toBe(file.checksum);
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
