import { databaseUrlFor, parseDatabaseUrl } from "@/lib/db/pg-pool";

/** The e2e run's own database on the test server, named by playwright.config.ts. */
export function e2eDatabase() {
  const server = parseDatabaseUrl(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
  const name = process.env.E2E_DATABASE;
  if (!name) throw new Error("E2E_DATABASE is not set: run the browser tests with `npx playwright test`");
  return { server, name, url: databaseUrlFor({ ...server, database: name }) };
}
