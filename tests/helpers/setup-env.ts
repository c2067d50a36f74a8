import { afterAll, beforeAll } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { setDatabaseForTests } from "@/lib/db";
import { createTestDatabase, type TestDatabase } from "./db";

export const TEST_ADMIN_KEY = "test-admin-key-0123456789abcdef";

process.env.ADMIN_API_KEY = TEST_ADMIN_KEY;
process.env.SEED_DEMO = "false";
resetConfigForTests();

// A fresh database for each test file (each file runs in its own module graph).
let testDb: TestDatabase | undefined;

beforeAll(async () => {
  testDb = await createTestDatabase();
  setDatabaseForTests(testDb.db);
});

afterAll(async () => {
  setDatabaseForTests(undefined);
  await testDb?.close();
});

/** This file's test database (its `connect` opens extra pools on a real server: true concurrency). */
export function currentTestDatabase(): TestDatabase {
  if (!testDb) throw new Error("no test database yet");
  return testDb;
}
