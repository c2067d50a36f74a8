import { afterAll, beforeAll } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { setDatabaseForTests } from "@/lib/db";
import { createTestDatabase, type TestDatabase } from "./db";

export const TEST_ADMIN_KEY = "test-admin-key-0123456789abcdef";

process.env.ADMIN_API_KEY = TEST_ADMIN_KEY;
process.env.SEED_DEMO = "false";
// the route handlers share a pool of 10 connections (real PostgreSQL): let them all run at once, and
// one caller's concurrent requests (the race tests) as many as admission ever lets one caller run
process.env.ADMISSION_CONCURRENCY = "10";
process.env.ADMISSION_CALLER_CONCURRENCY = "10";
process.env.MHQ_VERIFY_RESPONSES = "1";
resetConfigForTests();

// A fresh database for each test file (each file runs in its own module graph).
let testDb: TestDatabase | undefined;

/** This file's database (for `connect()`: more pools on it, real PostgreSQL only). */
export function currentTestDatabase(): TestDatabase {
  if (!testDb) throw new Error("the test database is not open yet (call this inside a test or hook)");
  return testDb;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  setDatabaseForTests(testDb.db);
});

afterAll(async () => {
  setDatabaseForTests(undefined);
  await testDb?.close();
});
