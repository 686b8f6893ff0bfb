import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { signIn } from "./support/sign-in";

const PAGES = ["/sessions", "/refusals", "/evidence?project=demo&q=modified-system-config", "/retention", "/audit", "/settings"];

test("the main pages have no serious accessibility violations, and each is kept as a screenshot", async ({ page }) => {
  await signIn(page, "admin");
  const sessionHref = await page.getByRole("table", { name: "Sessions" }).getByRole("link").first().getAttribute("href");
  for (const path of [...PAGES, sessionHref!]) {
    await page.goto(path);
    await expect(page.locator("main h1")).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious.map((v) => `${path}: ${v.id} (${v.nodes.length})`)).toEqual([]);
    await page.screenshot({ path: `e2e/artifacts/page${path.split("?")[0]!.replaceAll("/", "-")}.png`, fullPage: true });
  }
});
