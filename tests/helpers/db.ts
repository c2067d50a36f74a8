import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { migrate } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { openPostgres } from "@/lib/db/postgres";
import type { Database } from "@/lib/db/types";

export interface TestDatabase {
  db: Database;
  close(): Promise<void>;
}

export const transport = process.env.TEST_TRANSPORT === "socket" ? "socket" : "pglite";

/**
 * A fresh, migrated, empty database. With TEST_TRANSPORT=socket the embedded database is served on
 * a loopback port and reached through the production `DATABASE_URL` driver (postgres.js), so the
 * wire-protocol path — migrations included — is what the tests exercise.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const { db: local, pg } = await openPglite();
  if (transport !== "socket") {
    await migrate(local);
    return { db: local, close: () => local.close() };
  }
  const server = new PGLiteSocketServer({ db: pg, host: "127.0.0.1", port: 0 });
  await server.start();
  const remote = openPostgres(`postgres://postgres:postgres@${server.getServerConn()}/postgres`, { max: 1 });
  await migrate(remote);
  return {
    db: remote,
    close: async () => {
      await remote.close();
      await server.stop();
      await pg.close();
    },
  };
}
