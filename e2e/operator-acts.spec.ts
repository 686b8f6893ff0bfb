import { expect, test } from "@playwright/test";
import { originalOf, seedSession } from "./support/seed";
import { signIn } from "./support/sign-in";

test("an operator pins a span, extends another's TTL, and both acts are in the audit log", async ({ page }) => {
  const seeded = await seedSession("acts", [
    { kind: "TOOL_CALL", toolName: "write_file", body: '{"path":"/etc/app/conf.yaml","mode":"overwrite"}' },
    { kind: "TOOL_RESULT", body: "Wrote 47 bytes to /etc/app/conf.yaml" },
  ]);
  await signIn(page, "operator");

  await page.goto(`/projects/${seeded.projectSlug}/spans/${seeded.spanIds[0]}`);
  await page.getByLabel("Reason (optional)").fill("audit hold E2E");
  await page.getByRole("button", { name: "Pin original" }).click();
  await expect(page.getByRole("status")).toContainText("Pinned");
  await expect(page.getByTestId("expires")).toContainText("pinned");
  expect((await originalOf(seeded.spanIds[0]!)).pinned).toBe(true);

  await page.goto(`/projects/${seeded.projectSlug}/spans/${seeded.spanIds[1]}`);
  await page.getByLabel("Keep for (days from now)").fill("3000");
  await page.getByRole("button", { name: "Set expiry" }).click();
  await expect(page.getByRole("status")).toContainText("Extended");

  await page.goto(`/projects/${seeded.projectSlug}/audit`);
  const log = page.getByRole("table", { name: "Audit log" });
  await expect(
    log.getByRole("row").filter({ hasText: "Pinned original" }).filter({ hasText: "operator@demo.local" }).first(),
  ).toBeVisible();
  await expect(
    log.getByRole("row").filter({ hasText: "Extended original's expiry" }).filter({ hasText: "operator@demo.local" }).first(),
  ).toBeVisible();
});

test("an operator cannot shorten a TTL: that is an admin act", async ({ page }) => {
  const seeded = await seedSession("shorten", [{ kind: "TOOL_RESULT", body: "listed /var/log/app" }]);
  await signIn(page, "operator");
  await page.goto(`/projects/${seeded.projectSlug}/spans/${seeded.spanIds[0]}`);
  await page.getByLabel("Keep for (days from now)").fill("1");
  await page.getByRole("button", { name: "Set expiry" }).click();
  await expect(page.locator("p[role=alert]")).toContainText("admin");
});
