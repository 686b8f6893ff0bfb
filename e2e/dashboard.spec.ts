import { expect, test } from "@playwright/test";
import { signIn } from "./support/sign-in";

test("signing in opens the demo sessions; a grid cell's count equals its span list", async ({ page }) => {
  await page.goto("/sessions");
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, "viewer");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sessions" }).click();
  const sessions = page.getByRole("table", { name: "Sessions" });
  await expect(sessions.getByRole("link", { name: "Configure the app for staging" })).toBeVisible();
  await expect(sessions.getByRole("link", { name: "Fix the flaky checkout test" })).toBeVisible();
  await page.screenshot({ path: "e2e/artifacts/sessions.png", fullPage: true });

  await sessions.getByRole("link", { name: "Configure the app for staging" }).click();
  const grid = page.getByRole("table", { name: "Spans by evidential class and provenance status" });
  await expect(grid).toBeVisible();
  await page.screenshot({ path: "e2e/artifacts/session.png", fullPage: true });
  const cell = grid.locator('[data-cell="STRUCTURED:EXPIRING"] a');
  const count = Number(await cell.textContent());
  expect(count).toBeGreaterThan(0);
  await cell.click();
  await expect(page.getByTestId("span-list").locator("tbody tr")).toHaveCount(count);
});

test("a refusal leads to the refused span's verbatim bytes", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/projects/demo/refusals");
  const feed = page.getByRole("table", { name: "Refusal events" });
  // The staging session's gate request refused several spans: its row opens to them.
  const first = feed.getByRole("row").filter({ hasText: "Configure the app for staging" }).first();
  await first.getByText(/^\d+ spans$/).click();
  await first.getByRole("link", { name: /^\d+$/ }).first().click();
  await expect(page.getByTestId("span-body")).toBeVisible();
  await expect(page.getByTestId("hash-check")).toContainText("verified");
  await expect(page.getByRole("table", { name: "Gate decisions" })).toContainText(/refuse/i);
});

test("a wrong password is refused with a message", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill("viewer@demo.local");
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("p[role=alert]")).toContainText("Wrong email or password.");
});

test("health reports the database and current migrations", async ({ request }) => {
  const response = await request.get("/api/v1/health");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: "ok", database: "postgres", migrations: "current" });
});
