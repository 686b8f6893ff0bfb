import { expect, test } from "@playwright/test";
import pg from "pg";
import { TEST_APP_ROLE } from "@/lib/db/test-database";
import { e2eDatabase } from "./support/e2e-database";

test("the e2e server serves as the application's role, not as the database's owner", async ({ request }) => {
  expect((await request.get("/api/v1/health")).status()).toBe(200);
  const { server, name } = e2eDatabase();
  const admin = new pg.Client(server);
  await admin.connect();
  try {
    const { rows } = await admin.query<{ usename: string }>(
      "select distinct usename from pg_stat_activity where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid()",
      [name],
    );
    // The server's pool stays open after the request (seeding specs may connect as the owner too).
    expect(rows.map((r) => r.usename)).toContain(TEST_APP_ROLE);
  } finally {
    await admin.end();
  }
});
