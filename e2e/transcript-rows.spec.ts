import { expect, test } from "@playwright/test";
import { P } from "./support/pages";
import { seedSession } from "./support/seed";
import { signIn } from "./support/sign-in";

test("each row of a transcript says what its span says, escaped, and opens in place to the excerpt", async ({ page }) => {
  const hostile = `<img src=x onerror="window.__pwned = 1"> wrote /etc/hosts`;
  const long = `${"line of build output\n".repeat(200)}the end`;
  const seeded = await seedSession("says", [
    { kind: "MESSAGE", body: "Please rotate the staging keys." },
    { kind: "TOOL_CALL", toolName: "run_shell", body: '{"command":"rotate-keys --env staging"}' },
    { kind: "TOOL_RESULT", body: hostile },
    { kind: "TOOL_RESULT", body: long },
  ]);
  await signIn(page, "viewer");
  await page.goto(`/projects/${seeded.projectSlug}/sessions/${seeded.sessionId}`);
  const rows = page.getByTestId("span-list").locator("tbody tr");
  const says = (i: number) => rows.nth(i).getByTestId("span-says");
  await expect(says(0)).toHaveText("Please rotate the staging keys.");
  // A call: its tool's name, then its input.
  await expect(says(1)).toHaveText('run_shell {"command":"rotate-keys --env staging"}');
  // Markup is shown as the text it is and runs nothing.
  await expect(says(2)).toHaveText(hostile);
  await expect(says(2).locator("img")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  // A long result: one line until opened, then the excerpt read, with the way to the rest.
  const disclosure = says(3).locator("summary");
  await expect(disclosure).toHaveText(/^line of build output line of build output .*…$/);
  await expect(says(3).locator("pre")).toBeHidden();
  await disclosure.click();
  await expect(says(3).locator("pre")).toBeVisible();
  await expect(says(3).locator("pre")).toContainText("line of build output\nline of build output");
  await expect(says(3)).toContainText(`The first 1,024 characters of ${long.length.toLocaleString("en")} bytes.`);
  await expect(says(3).getByRole("link", { name: "Open the span" })).toHaveAttribute(
    "href",
    `/projects/${seeded.projectSlug}/spans/${seeded.spanIds[3]}`,
  );
});

test("a lost span's row says the original is gone and what the summary that replaced it dropped", async ({ page }) => {
  // The demo's two-year-old migration: its summary carried pointers, and the sweeper has since
  // deleted the originals (and the summary's own text).
  await signIn(page, "viewer");
  await page.goto(`${P}/sessions`);
  await page.getByRole("link", { name: "Migrate app config to /etc" }).click();
  const write = page.getByTestId("span-list").locator("tbody tr").filter({ hasText: "write_file" });
  const says = write.getByTestId("span-says");
  await expect(says.locator("summary")).toHaveText(
    "write_file Original deleted (ttl expired). The summary's text is not held either.",
  );
  await says.locator("summary").click();
  await expect(says.getByTestId("says-dropped")).toContainText(/\d+ paths?/);
});
