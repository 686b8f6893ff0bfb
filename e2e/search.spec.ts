import { expect, test } from "@playwright/test";
import { signIn } from "./support/sign-in";

test("typing 8443 after / finds the demo's spans, and a hit opens the original with the match highlighted", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/projects/demo/sessions");
  const box = page.getByRole("searchbox", { name: "Search transcripts" });
  // The shortcut is the page's script: a key pressed before it has loaded goes nowhere, as in any
  // browser, so the key is pressed again until the script answers it.
  await expect(async () => {
    await page.keyboard.press("/");
    await expect(box).toBeFocused({ timeout: 1_000 });
  }).toPass();
  await box.fill("8443");
  await box.press("Enter");
  await expect(page).toHaveURL(/\/projects\/demo\/search\?q=8443/);
  const hits = page.getByTestId("search-hits");
  await expect(hits.locator("li").first()).toBeVisible();
  await expect(hits.locator("mark.cited").first()).toHaveText("8443");
  const curl = hits.locator("li").filter({ hasText: "localhost:8443/health" }).first();
  await expect(curl).toBeVisible();
  await curl.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/spans\/[0-9a-f-]+\?from=\d+&to=\d+/);
  const cited = page.getByTestId("span-body").locator("mark.cited");
  await expect(cited.first()).toBeVisible();
  expect((await cited.allTextContents()).join("")).toBe("8443");
});

test("a span whose original expired is still found in what is kept of it, badged, and opens without a byte range", async ({
  page,
}) => {
  await signIn(page, "viewer");
  // The seed's scenario: write_file(path="/etc/app/conf.yaml"), its original long swept.
  await page.goto("/projects/demo/search?q=%2Fetc%2Fapp%2Fconf.yaml");
  const hits = page.getByTestId("search-hits").locator("li");
  const expired = hits.filter({ has: page.getByTestId("search-hit-expired") });
  await expect(expired.first()).toBeVisible();
  await expect(expired.first().getByTestId("search-hit-expired")).toHaveText("original expired");
  await expect(expired.first().locator("mark.cited")).toHaveText("/etc/app/conf.yaml");
  await expect(expired.first()).not.toContainText(/bytes \d+–\d+ of/);
  await expired.first().getByRole("link").first().click();
  await expect(page).toHaveURL(/\/spans\/[0-9a-f-]+$/);
});
