import { expect, test } from "@playwright/test";
import { seedSession } from "./support/seed";
import { signIn } from "./support/sign-in";

test("a transcript body with <script> and <img onerror> renders as text and runs nothing", async ({ page }) => {
  const hostile = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> wrote /etc/hosts`;
  const seeded = await seedSession("hostile", [{ kind: "TOOL_RESULT", body: hostile }]);
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await signIn(page, "viewer");
  await page.goto(`/projects/${seeded.projectSlug}/spans/${seeded.spanIds[0]}`);
  const body = page.getByTestId("span-body");
  await expect(body).toContainText(hostile);
  await expect(body.locator("img, script")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
});
