import { afterAll, inject } from "vitest";
import { disconnectDb } from "./client";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.CUSTODIAN_DATABASE_MODE = "postgres";

afterAll(async () => {
  await disconnectDb();
});
