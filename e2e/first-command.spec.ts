/**
 * The README's first command as a newcomer meets it: `npm start` on the embedded database with
 * the demo, signed in, the pages they open first, the system-config question asked on the Evidence
 * page and through the API, and health still ok after each. Runs against its own server (the
 * "embedded" project of playwright.config.ts).
 */
import { expect, test } from "@playwright/test";
import { signIn } from "./support/sign-in";

test("a newcomer's first pages and first question on the embedded database", async ({ page, request }) => {
  await signIn(page, "admin");
  for (const path of ["", "/sessions", "/refusals", "/retention", "/audit"]) {
    const response = await page.goto(`/projects/demo${path}`);
    expect(response?.status(), path || "overview").toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }

  await page.goto("/projects/demo/evidence");
  await page.getByLabel(/^Question/).selectOption("modified-system-config");
  await page.getByRole("button", { name: "Ask" }).click();
  await expect(page.getByTestId("answer")).toHaveText("YES");

  const health = await request.get("/api/v1/health");
  expect(await health.json()).toMatchObject({ status: "ok", database: "embedded" });

  // Once more, after everything above: the pages still render.
  await page.goto("/projects/demo/sessions");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});
