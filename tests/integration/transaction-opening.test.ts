import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/types";
import { createTestDatabase, transport, type TestDatabase } from "../helpers/db";

// Every request's transaction opens with BEGIN and the caller's settings (withClaims). On a server
// connection (and the production server's embedded engine) the transaction's own first statement
// goes out with them instead of a round trip later. Whatever the transport: that statement already
// sees the settings, and when the settings fail, nothing of the transaction is kept and the error
// reported is the settings' own.
let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await db.exec("create table tx_opening (id int primary key)");
});
afterAll(async () => {
  await database?.close();
});

describe(`a transaction's opening statements (${transport})`, () => {
  it("the first statement of the transaction sees the settings sent with BEGIN", async () => {
    const seen = await db.transaction(
      async (tx) => {
        const [row] = await tx.query<{ v: string; role: string }>("select current_setting('mhq.opening_probe', true) as v, current_user as role");
        return row!;
      },
      { first: { text: "select set_config('mhq.opening_probe', $1, true), set_config('role', 'mhq_app', true)", params: ["set"] } },
    );
    expect(seen).toEqual({ v: "set", role: "mhq_app" });
    // transaction-local: gone afterwards
    const [after] = await db.query<{ v: string | null }>("select nullif(current_setting('mhq.opening_probe', true), '') as v");
    expect(after!.v).toBeNull();
  });

  it("settings that fail abort the transaction: its writes are not kept and their error is the one reported", async () => {
    const failed = db.transaction(
      async (tx) => {
        await tx.query("insert into tx_opening (id) values (1)");
        await tx.query("insert into tx_opening (id) values (2)");
      },
      { first: { text: "select set_config('mhq.opening_probe', $1, true), 1 / $2::int", params: ["x", 0] } },
    );
    await expect(failed).rejects.toThrow(/division by zero/);
    const rows = await db.query<{ n: number }>("select count(*)::int as n from tx_opening");
    expect(rows[0]!.n).toBe(0);
    // the connection is usable again
    await db.transaction(async (tx) => {
      await tx.query("insert into tx_opening (id) values (3)");
    });
    expect((await db.query<{ id: number }>("select id from tx_opening")).map((r) => r.id)).toEqual([3]);
  });

  it("an error of the transaction's own statement is reported as it is, and rolls everything back", async () => {
    const failed = db.transaction(
      async (tx) => {
        await tx.query("insert into tx_opening (id) values (4)");
        await tx.query("insert into tx_opening (id) values (3)"); // taken
      },
      { first: { text: "select set_config('mhq.opening_probe', $1, true)", params: ["y"] } },
    );
    await expect(failed).rejects.toThrow(/duplicate key/);
    expect((await db.query<{ id: number }>("select id from tx_opening order by id")).map((r) => r.id)).toEqual([3]);
  });
});
