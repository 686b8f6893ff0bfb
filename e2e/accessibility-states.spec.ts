import { expect, test } from "@playwright/test";
import { everyWidthAndScheme, firstSession } from "./support/pages";
import { seedPerson, seedSession } from "./support/seed";
import { signIn, signInAs } from "./support/sign-in";

// Pages and states the page list does not reach by address alone: the home page of a person with no
// project, a session's bulk act waiting for its confirmation (the error page: database-gone.spec.ts).
// Each is reached once and checked at both widths in both colour schemes.

test("the home page of a person with no project says so; axe finds nothing", async ({ page }) => {
  await signInAs(page, await seedPerson(), /\/$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("No project yet");
  await expect(page.locator("main")).toContainText("not a member of any project");
  await everyWidthAndScheme(page, "no project yet");
});

test("a session opened on one grid cell, its bulk-act form and confirmation dialog: axe finds nothing", async ({ page }) => {
  const seeded = await seedSession("bulk-axe", [
    { kind: "TOOL_CALL", toolName: "Bash", body: '{"command":"sudo systemctl restart app"}' },
    { kind: "TOOL_RESULT", body: "restarted" },
  ]);
  await signIn(page, "operator");
  await page.goto(`/projects/${seeded.projectSlug}/sessions/${seeded.sessionId}`);
  const grid = page.getByRole("table", { name: "Spans by evidential class and provenance status" });
  await grid.getByRole("link").first().click();
  await expect(page).toHaveURL(/class=\w+&provenance=\w+/);
  const acts = page.getByRole("form", { name: /^Retention acts for / });
  await acts.getByLabel("Reason (required)").fill("kept for the incident review");
  await acts.getByRole("button", { name: /^Pin / }).click();
  await expect(acts.getByRole("alertdialog", { name: "Confirm" })).toContainText("kept for the incident review");
  await everyWidthAndScheme(page, "a session's bulk act");
});

test("the skip link: the first Tab from the top focuses it, Enter moves focus to the page's main content", async ({ page }) => {
  async function expectSkipLinkWorks(path: string) {
    await page.goto(path);
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    // Shown while focused: inside the screen, not parked above it.
    expect((await skip.boundingBox())!.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press("Enter");
    await expect(page.locator("main#main")).toBeFocused();
    // The next Tab goes on from the main content, not back into the navigation.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("main") !== null)).toBe(true);
  }
  // Signed out (the sign-in page), then signed in (a session, whose navigation comes before it).
  await expectSkipLinkWorks("/login");
  await signIn(page, "viewer");
  await expectSkipLinkWorks(await firstSession(page));
});
