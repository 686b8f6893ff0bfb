import { type Cookie, expect, test } from "@playwright/test";
import { everyWidthAndScheme, firstSession, PAGES } from "./support/pages";
import { signIn } from "./support/sign-in";

// Read-only checks of pages: the workers share this file, the longest of the suite.
test.describe.configure({ mode: "parallel" });

// The admin's session, signed in once per worker through the sign-in form and handed to each page
// test as its cookie: what is checked here is the pages, and a sign-in per page was a tenth of the
// file's time (the sign-in page is among those checked, and
// signing in is tested in roles.spec.ts and lib/auth/sign-in.db.test.ts).
let admin: Cookie[] = [];
test.beforeAll(async ({ browser }, testInfo) => {
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  await signIn(await context.newPage(), "admin");
  admin = (await context.storageState()).cookies;
  await context.close();
});

// One test per page: loaded once, checked at both widths in both colour schemes (everyWidthAndScheme
// says why one load stands for four).
for (const { name, signedIn, path } of PAGES) {
  test(`${name}: axe finds nothing and nothing scrolls sideways, at 390 and 1280 px, light and dark`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 900 });
    if (signedIn) await page.context().addCookies(admin);
    await page.goto(await path(page));
    await expect(page.locator("main h1").first()).toBeVisible();
    await everyWidthAndScheme(page, name);
  });
}

test("the grid is operable by keyboard: Tab reaches each cell holding spans by its name, Enter opens it", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto(await firstSession(page));
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
