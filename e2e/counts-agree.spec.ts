import { expect, test } from "@playwright/test";
import { P } from "./support/pages";
import { signIn } from "./support/sign-in";

test("each session's at-risk and lost counts in the list are its grid's amber and red cells", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto(`${P}/sessions`);
  const rows = page.getByRole("table", { name: "Sessions" }).locator("tbody tr");
  const listed = await rows.evaluateAll((trs) =>
    trs.map((tr) => ({
      href: tr.querySelector("a")!.getAttribute("href")!,
      atRisk: Number(tr.querySelector('[data-testid="at-risk"]')!.textContent),
      lost: Number(tr.querySelector('[data-testid="lost"]')!.textContent),
    })),
  );
  expect(listed.length).toBeGreaterThan(3);
  // The demo has sessions with each: the comparison is not of zeros alone.
  expect(listed.some((s) => s.lost > 0)).toBe(true);
  expect(listed.some((s) => s.atRisk > 0)).toBe(true);
  for (const session of listed) {
    await page.goto(session.href);
    const grid = page.getByRole("table", { name: "Spans by evidential class and provenance status" });
    const sum = (tone: string) =>
      grid.locator(`td.${tone}`).evaluateAll((tds) => tds.reduce((n, td) => n + Number(td.textContent), 0));
    expect({ href: session.href, atRisk: await sum("risk"), lost: await sum("lost") }).toEqual(session);
  }
});

test("cells with no pointer are explained under the grid", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto(`${P}/sessions`);
  await page.getByRole("link", { name: "Nightly dependency bump (compacted without the gate)" }).click();
  await expect(page.getByTestId("no-pointer-note")).toContainText("without pointing to their originals");
});
