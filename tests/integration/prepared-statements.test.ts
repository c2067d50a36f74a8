import { describe, expect, it } from "vitest";
import { openPostgres, preparesStatements } from "@/lib/db/postgres";
import type { Database } from "@/lib/db/types";
import { transport } from "../helpers/db";
import { currentTestDatabase } from "../helpers/setup-env";

// DATABASE_PREPARE: on a direct connection the app prepares its statements (one round trip for a
// repeated statement instead of two: postgres.js otherwise asks for the parameter types first, every
// time); towards a transaction-mode pooler's port it sends them unnamed, as every pooler accepts.
const REAL = transport === "postgres";

/** The statements prepared on the pool's one connection after the same statement ran twice. */
async function preparedAfterRepeat(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query("select $1::int as n", [1]);
    await tx.query("select $1::int as n", [2]);
    const [row] = await tx.query<{ n: number }>("select count(*)::int as n from pg_prepared_statements where statement like '%$1::int as n%'");
    return row!.n;
  });
}

describe("prepared statements (DATABASE_PREPARE)", () => {
  it("auto prepares on a direct connection and not towards a transaction pooler's port", () => {
    expect(preparesStatements("postgres://u:p@db.example.com:5432/app")).toBe(true);
    expect(preparesStatements("postgres://u:p@db.example.com/app")).toBe(true);
    expect(preparesStatements("postgres://u:p@aws-0-eu.pooler.supabase.com:6543/postgres")).toBe(false);
    expect(preparesStatements("postgres://u:p@pgbouncer.internal:6432/app")).toBe(false);
    expect(preparesStatements("postgres://u:p@pgbouncer.internal:6432/app", true)).toBe(true);
    expect(preparesStatements("postgres://u:p@db.example.com:5432/app", false)).toBe(false);
  });

  describe.runIf(REAL)("on a real PostgreSQL server", () => {
    it("a prepared pool keeps one named statement per distinct text on its connection", async () => {
      const { url } = currentTestDatabase();
      expect(preparesStatements(url!)).toBe(true);
      const db = openPostgres(url!, { max: 1, prepare: true });
      try {
        expect(await preparedAfterRepeat(db)).toBe(1);
      } finally {
        await db.close();
      }
    });

    it("an unprepared pool (a pooler's) leaves nothing named on the server connection", async () => {
      const db = openPostgres(currentTestDatabase().url!, { max: 1, prepare: false });
      try {
        expect(await preparedAfterRepeat(db)).toBe(0);
      } finally {
        await db.close();
      }
    });
  });
});
