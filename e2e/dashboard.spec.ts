import { expect, test } from "@playwright/test";

test("the dashboard opens on the demo sessions and a session shows its evidence grid", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/sessions$/);
  const sessions = page.getByRole("table", { name: "Sessions" });
  await expect(sessions.getByRole("link", { name: "Configure the app for staging" })).toBeVisible();
  await expect(sessions.getByRole("link", { name: "Fix the flaky checkout test" })).toBeVisible();
  await page.screenshot({ path: "e2e/artifacts/sessions.png", fullPage: true });

  await sessions.getByRole("link", { name: "Configure the app for staging" }).click();
  await expect(page.getByRole("heading", { name: "Configure the app for staging" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Spans by evidential class and provenance status" })).toBeVisible();
  await page.screenshot({ path: "e2e/artifacts/session.png", fullPage: true });
});

test("health reports the database and current migrations", async ({ request }) => {
  const response = await request.get("/api/v1/health");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: "ok", database: "postgres", migrations: "current" });
});
