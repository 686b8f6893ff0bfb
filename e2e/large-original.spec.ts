import { expect, test } from "@playwright/test";
import { seedSession } from "./support/seed";
import { signIn } from "./support/sign-in";

/** 1 MiB of text with a command 900 KiB in: far past the page's 64 KiB excerpt. */
const MARK = "rm -rf /etc/app/conf.yaml";
const MARK_AT = 900 * 1024;
const LENGTH = 1024 * 1024;
/** 600 paths first: more atoms than the page lists. */
const PATHS = Array.from({ length: 600 }, (_, i) => `/srv/data/f${i} `).join("");
const body = `${PATHS}${"x".repeat(MARK_AT - 1 - PATHS.length)} ${MARK} ${"x".repeat(LENGTH - MARK_AT - MARK.length - 1)}`;

test("a large original's page shows a bounded excerpt, says what it leaves out, and links to all of it", async ({ page }) => {
  const seeded = await seedSession("large-original", [{ kind: "TOOL_RESULT", toolName: "Bash", body }]);
  await signIn(page, "viewer");
  const spanPage = `/projects/${seeded.projectSlug}/spans/${seeded.spanIds[0]}`;
  const response = await page.goto(spanPage);
  // The page carries the excerpt and a bounded list of atoms, not the megabyte (rendered whole, over 2 MiB).
  expect((await response!.body()).byteLength).toBeLessThan(LENGTH / 2);
  const shown = page.getByTestId("span-body");
  expect(((await shown.textContent()) ?? "").length).toBe(64 * 1024);
  await expect(shown).not.toContainText(MARK);
  // The atoms table lists a bounded number of rows, and says so.
  await expect(page.getByRole("table", { name: "Atoms" }).locator("tbody tr")).toHaveCount(100);
  await expect(page.getByTestId("atoms-note")).toBeVisible();
  const note = page.getByTestId("excerpt-note");
  await expect(note).toContainText("Showing bytes 0–65,536 of 1,048,576");
  await expect(note).toContainText("983,040 bytes are not shown here");

  // The link serves every byte as a download, never as a page.
  const href = await note.getByRole("link", { name: /Download all 1,048,576 bytes/ }).getAttribute("href");
  const raw = await page.request.get(href!);
  expect(raw.status()).toBe(200);
  expect(raw.headers()["content-disposition"]).toMatch(/^attachment/);
  expect(raw.headers()["x-content-type-options"]).toBe("nosniff");
  expect((await raw.body()).toString("utf8")).toBe(body);
  const ranged = await page.request.get(href!, { headers: { range: `bytes=${MARK_AT}-${MARK_AT + MARK.length - 1}` } });
  expect(ranged.status()).toBe(206);
  expect((await ranged.body()).toString("utf8")).toBe(MARK);

  // A citation deep in the original opens on the excerpt that holds it, marked.
  await page.goto(`${spanPage}?from=${MARK_AT}&to=${MARK_AT + MARK.length}#cited`);
  // The cited range is marked with the original's byte offsets (the path atom inside it splits it).
  await expect(page.locator("#cited")).toHaveAttribute("data-bytes", new RegExp(`^${MARK_AT}-`));
  expect((await page.locator("mark.cited").allTextContents()).join("")).toBe(MARK);
  await expect(page.getByTestId("excerpt-note")).toContainText(`Showing bytes ${(MARK_AT - 1024).toLocaleString("en")}–`);
});
