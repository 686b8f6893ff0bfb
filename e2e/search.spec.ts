import { expect, test } from "@playwright/test";
import { signIn } from "./support/sign-in";

test("typing 8443 after / finds the demo's spans, and a hit opens the original with the match highlighted", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/projects/demo/sessions");
  await page.keyboard.press("/");
  const box = page.getByRole("searchbox", { name: "Search transcripts" });
  await expect(box).toBeFocused();
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
