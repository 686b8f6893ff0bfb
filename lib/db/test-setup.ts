import { afterAll, beforeAll, inject } from "vitest";
import { db, disconnectDb } from "./client";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.CUSTODIAN_DATABASE_MODE = "postgres";

// Test files share one database and one "address" (no proxy header): throttle counters another
// file ran up (sign-in failures, unknown keys) must not answer this file's first requests with 429.
beforeAll(async () => {
  await db().$executeRawUnsafe("delete from throttle");
});

afterAll(async () => {
  await disconnectDb();
});
