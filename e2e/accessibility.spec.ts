import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./support/sign-in";

const PAGES = ["/sessions", "/refusals", "/evidence?q=modified-system-config", "/retention", "/audit", "/settings"].map(
  (path) => `/projects/demo${path}`,
);

/** No serious or critical axe violation on the page, and its screenshot kept as an artifact. */
async function checkPage(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("main h1")).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${path}: ${v.id} (${v.nodes.length})`)).toEqual([]);
  const name = /\/sessions\/./.test(path) ? "session" : path.split("?")[0]!.split("/").pop()!;
  await page.screenshot({ path: `e2e/artifacts/page-${name}.png`, fullPage: true });
}

// One test per page: each stays well inside the test timeout on a busy two-core machine.
for (const path of PAGES) {
  test(`${path.split("?")[0]!.replace("/projects/demo", "")} has no serious accessibility violations, and is kept as a screenshot`, async ({
    page,
  }) => {
    await signIn(page, "admin");
    await checkPage(page, path);
  });
}

test("a session's page has no serious accessibility violations, and is kept as a screenshot", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/projects/demo/sessions");
  // A session's own link, not a column header's sort link.
  const sessionHref = await page
    .getByRole("table", { name: "Sessions" })
    .locator('a[href^="/projects/demo/sessions/"]')
    .first()
    .getAttribute("href");
  expect(sessionHref).toMatch(/^\/projects\/demo\/sessions\/[0-9a-f-]{36}$/);
  await checkPage(page, sessionHref!);
});
