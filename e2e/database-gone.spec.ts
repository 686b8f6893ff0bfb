import { expect, test } from "@playwright/test";
import pg from "pg";
import { e2eDatabase } from "./support/e2e-database";
import { everyWidthAndScheme, P } from "./support/pages";
import { signIn } from "./support/sign-in";

// The error page, reached by taking the database away from the server. Every other test would see
// it gone too, so this file runs alone, after the rest (its own project in playwright.config.ts).

/**
 * Runs `during` while the application cannot reach its database: no new connection is allowed and
 * the open ones are closed, as when the server goes away. Connections are allowed again afterwards,
 * whatever happened.
 */
async function withDatabaseGone(during: () => Promise<void>) {
  const { server, name } = e2eDatabase();
  const admin = new pg.Client(server);
  await admin.connect();
  try {
    await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name]);
    await during();
  } finally {
    await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
    await admin.end();
  }
}

test("the error page, shown when the database goes away, says so with a reference and a retry; axe finds nothing", async ({
  page,
}) => {
  await signIn(page, "admin");
  await withDatabaseGone(async () => {
    const response = await page.goto(`${P}/sessions`);
    expect(response?.status()).toBe(500);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This page could not be shown");
    // The server's reference for the failure, never its message.
    await expect(page.locator("main code")).toHaveText(/^\S+$/);
    await expect(page.locator("main")).not.toContainText("ALLOW_CONNECTIONS");
    await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
    await everyWidthAndScheme(page, "error");
  });
  // With the database back, Try again shows the page.
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sessions");
});
