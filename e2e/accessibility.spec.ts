import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { signIn } from "./support/sign-in";

const P = "/projects/demo";

/** The first link on a page whose address starts with `prefix` (a session, a span, a refusal). */
async function firstLink(page: Page, from: string, selector: string): Promise<string> {
  await page.goto(from);
  const href = await page.locator(selector).first().getAttribute("href");
  expect(href).toBeTruthy();
  return href!;
}

/**
 * Every page of the dashboard, each with how to reach it: a fixed address, or one found by following
 * the first link of its list (a session, a span, a refusal, the printable export).
 */
const PAGES: Array<{ name: string; signedIn: boolean; path: (page: Page) => Promise<string> }> = [
  { name: "sign-in", signedIn: false, path: async () => "/login" },
  { name: "overview", signedIn: true, path: async () => P },
  { name: "sessions", signedIn: true, path: async () => `${P}/sessions` },
  {
    name: "a session",
    signedIn: true,
    path: (page) => firstLink(page, `${P}/sessions`, `table[aria-label="Sessions"] a[href^="${P}/sessions/"]`),
  },
  {
    name: "a span",
    signedIn: true,
    path: async (page) =>
      firstLink(
        page,
        await firstLink(page, `${P}/sessions`, `table[aria-label="Sessions"] a[href^="${P}/sessions/"]`),
        `a[href^="${P}/spans/"]`,
      ),
  },
  { name: "refusals", signedIn: true, path: async () => `${P}/refusals` },
  { name: "a refusal", signedIn: true, path: (page) => firstLink(page, `${P}/refusals`, `a[href^="${P}/refusals/"]`) },
  { name: "evidence with an answer", signedIn: true, path: async () => `${P}/evidence?q=modified-system-config` },
  {
    name: "the printable export",
    signedIn: true,
    path: (page) => firstLink(page, `${P}/evidence?q=modified-system-config`, 'a[href*="/evidence/export/print"]'),
  },
  { name: "retention", signedIn: true, path: async () => `${P}/retention` },
  { name: "retention history", signedIn: true, path: async () => `${P}/retention/history` },
  { name: "audit log", signedIn: true, path: async () => `${P}/audit` },
  { name: "imports", signedIn: true, path: async () => `${P}/imports` },
  { name: "settings", signedIn: true, path: async () => `${P}/settings` },
  { name: "instance admin", signedIn: true, path: async () => "/admin" },
  { name: "not found", signedIn: true, path: async () => `${P}/no-such-page` },
];

/**
 * axe finds nothing on the page, the page is no wider than the screen (wide tables scroll inside
 * their own box), and its screenshot is kept as an artifact.
 */
async function checkPage(page: Page, path: string, name: string, width: number) {
  await page.goto(path);
  await expect(page.locator("main h1").first()).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${path}: ${v.id} (${v.impact}, ${v.nodes.length})`)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  await page.screenshot({ path: `e2e/artifacts/page-${name.replaceAll(" ", "-")}-${width}.png`, fullPage: true });
}

// One test per page and width: each stays well inside the test timeout on a busy two-core machine.
for (const width of [390, 1280]) {
  for (const { name, signedIn, path } of PAGES) {
    test(`${name} at ${width} px: axe finds nothing and nothing scrolls sideways`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      if (signedIn) await signIn(page, "admin");
      await checkPage(page, await path(page), name, width);
    });
  }
}

test("the grid is operable by keyboard: Tab reaches each cell holding spans by its name, Enter opens it", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto(await firstLink(page, `${P}/sessions`, `table[aria-label="Sessions"] a[href^="${P}/sessions/"]`));
  const grid = page.getByRole("table", { name: "Spans by evidential class and provenance status" });
  const cells = grid.getByRole("link");
  const names = await cells.evaluateAll((links) => links.map((a) => a.getAttribute("aria-label") ?? ""));
  expect(names.length).toBeGreaterThan(0);
  for (const name of names)
    expect(name).toMatch(/^[1-9]\d* (narrative|structured|side-effecting) spans?, (durable|expiring|lost|no pointer)$/);
  // Every cell with a count is a link; an empty one is not.
  const counts = await grid.locator("td[data-cell]").evaluateAll((tds) => tds.map((td) => Number(td.textContent)));
  expect(counts.filter((n) => n > 0)).toHaveLength(names.length);

  await cells.first().focus();
  for (let i = 1; i < names.length; i++) {
    await page.keyboard.press("Tab");
    await expect(page.locator(":focus")).toHaveAttribute("aria-label", names[i]!);
  }
  // The focused cell shows it: an outline is drawn.
  expect(await page.locator(":focus").evaluate((a) => getComputedStyle(a).outlineStyle)).toBe("solid");
  const [, cls, status] = /\/sessions\/[^?]+\?class=(\w+)&provenance=(\w+)/.exec((await cells.last().getAttribute("href"))!)!;
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`class=${cls}&provenance=${status}`));
  await expect(grid.locator(`td[data-cell="${cls}:${status}"] a`)).toHaveAttribute("aria-current", "true");
});
