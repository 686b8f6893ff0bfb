import { afterAll, beforeAll, inject } from "vitest";
import { db, disconnectDb } from "./client";
import { workerDatabase } from "./test-database";

// This worker's copy of the run's template: files of one worker share it, workers never do.
const database = await workerDatabase(inject("testDatabaseTemplate"), process.env.VITEST_POOL_ID ?? "1");
process.env.DATABASE_URL = database.url;
/** The same database as its owner, for tests of what the application's role may not do. */
process.env.TEST_OWNER_DATABASE_URL = database.ownerUrl;
process.env.CUSTODIAN_DATABASE_MODE = "postgres";

// Test files share one database and one "address" (no proxy header): throttle counters another
// file ran up (sign-in failures, unknown keys) must not answer this file's first requests with 429.
beforeAll(async () => {
  await db().$executeRawUnsafe("delete from throttle");
});

afterAll(async () => {
  await disconnectDb();
});
