import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { signIn } from "./support/sign-in";

test("the system-config question on the demo cites bytes that the span page highlights, and exports", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/projects/demo/evidence");
  await page.getByLabel(/^Question/).selectOption("modified-system-config");
  await page.getByRole("button", { name: "Ask" }).click();
  await expect(page.getByTestId("answer")).toHaveText("YES");
  await page.screenshot({ path: "e2e/artifacts/evidence.png", fullPage: true });

  const citation = page
    .getByRole("table", { name: "Citations" })
    .getByRole("row")
    .filter({ hasText: "/etc/app/conf.yaml" })
    .first();
  await citation.getByRole("link", { name: /–/ }).click();
  await expect(page.locator("mark.cited")).toHaveText("/etc/app/conf.yaml");

  await page.goBack();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "CSV" }).click()]);
  const csv = readFileSync((await download.path())!, "utf8");
  // The export's facts come first, then a blank line and the table.
  expect(csv.split("\r\n\r\n")[1]!.split("\r\n")[0]).toContain('"excerpt"');
  expect(csv).toContain('"/etc/app/conf.yaml"');
  const [jsonDownload] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "JSON" }).click()]);
  const json = JSON.parse(readFileSync((await jsonDownload.path())!, "utf8"));
  expect(json.answer.answer).toBe("YES");
  expect(json.citations.some((c: { excerpt: string }) => c.excerpt === "/etc/app/conf.yaml")).toBe(true);
});
