import { expect, test } from "@playwright/test";
import { P } from "./support/pages";
import { seedPerson } from "./support/seed";
import { signIn, signInAs } from "./support/sign-in";

test("following a section of the navigation marks it while its page loads, and says which in words", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto(`${P}/sessions`);
  // The page's data (the router's request for it) takes a while, as on a slow link or a busy server.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname === `${P}/refusals`,
    async (route) => {
      if (route.request().headers().rsc) await held;
      await route.continue();
    },
  );
  const nav = page.getByRole("navigation", { name: "Main" });
  const link = nav.getByRole("link", { name: "Refusals" });
  await link.click();
  await expect(link.locator(".nav-pending")).toHaveAttribute("data-pending", "true");
  await expect(link.locator(".nav-pending")).toBeVisible();
  await expect(nav.locator("[aria-live]")).toHaveText("Loading Refusals…");
  // The current page stays until the next one is ready.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sessions");

  release();
  await expect(page).toHaveURL(new RegExp(`${P}/refusals$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Refusals");
  await expect(link).toHaveAttribute("aria-current", "page");
  await expect(link.locator(".nav-pending")).not.toHaveAttribute("data-pending", "true");
  await expect(nav.locator("[aria-live]")).toHaveText("");
});

test("a non-member still gets a real 404 status for a project's pages, with nothing sent before the check", async ({ page }) => {
  await signInAs(page, await seedPerson(), /\/$/);
  for (const path of ["", "/sessions", "/refusals", "/evidence", "/imports", "/retention", "/audit"]) {
    const response = await page.goto(`${P}${path}`);
    expect.soft(response?.status(), `${P}${path}`).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("There is nothing here");
    // Nothing of the project's shell (its navigation) reached the page either.
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  }
});
