import { afterAll, inject } from "vitest";
import { disconnectDb } from "./client";

process.env.DATABASE_URL = inject("embeddedDatabaseUrl");
process.env.CUSTODIAN_DATABASE_MODE = "embedded";

afterAll(async () => {
  await disconnectDb();
});
