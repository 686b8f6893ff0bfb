import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/pages";
import { seedDemoProject } from "./support/seed";
import { signIn } from "./support/sign-in";

test("a policy owner previews a shorter side-effecting TTL, saves it with a reason, finds it audited and in the history, and rolls it back", async ({
  page,
}) => {
  // Its own copy of the demo: a policy saved here would change what other tests see of the demo.
  const base = `/projects/${(await seedDemoProject("what-if")).projectSlug}`;
  await signIn(page, "admin");
  await page.goto(`${base}/retention`);
  const version = Number(await page.getByTestId("policy-version").textContent());
  // Received per day has its axes named; the storage table and the expiry chart name classes in words.
  const received = page.getByRole("img", { name: "Bytes received per day" });
  await expect(received.locator(".recharts-label", { hasText: "Day received" })).toBeVisible();
  await expect(received.locator(".recharts-label", { hasText: "Bytes held" })).toBeVisible();
  const ticks = received.locator(".recharts-xAxis-tick-labels text");
  await expect(ticks.first()).toBeVisible();
  for (const tick of await ticks.allTextContents()) expect(tick).toMatch(/^[A-Z][a-z]{2} \d{1,2}( \d{4})?$/);
  await expect(page.getByRole("table", { name: "Bytes by class" })).toContainText("Side-effecting");
  expect(await page.getByRole("region", { name: "Storage" }).textContent()).not.toContain("SIDE_EFFECTING");
  expect(await page.getByRole("region", { name: "Expiries" }).textContent()).not.toMatch(/SIDE_EFFECTING|STRUCTURED/);

  const proposal = page.getByRole("form", { name: "Proposed policy" });
  await proposal.getByLabel("Side-effecting TTL (days)").fill("1");
  await proposal.getByRole("button", { name: "Simulate" }).click();

  const simulation = page.getByRole("region", { name: "Simulation" });
  // Current and proposed storage on one chart, one y-scale: the stacked chart per policy is gone.
  await expect(simulation.getByRole("img", { name: "Bytes stored: current and proposed policy" })).toBeVisible({
    timeout: 30_000,
  });
  await expect(simulation.getByRole("img", { name: /Stored bytes by class/ })).toHaveCount(0);
  expect(
    await simulation.getByRole("img", { name: "Bytes stored: current and proposed policy" }).locator(".recharts-yAxis").count(),
  ).toBe(1);
  // Deletions by day: some day of the proposal deletes originals.
  const days = simulation.getByRole("table", { name: "Day by day", exact: true });
  const proposedDeleted = days.locator("tbody tr td:nth-child(6)");
  await expect(proposedDeleted.first()).toBeVisible();
  const deleted = (await proposedDeleted.allTextContents()).reduce((n, t) => n + Number(t.replace(/,/g, "")), 0);
  expect(deleted).toBeGreaterThan(0);
  // At least one answer turns to insufficient evidence: the demo's staging-config session.
  const answers = simulation.getByRole("table", { name: "Answers affected" });
  await expect(answers.getByRole("row").filter({ hasText: "Insufficient evidence" }).first()).toBeVisible();
  await expect(answers.getByRole("row").filter({ hasText: "Did we modify system config?" }).first()).toBeVisible();
  // The headline says the proposal's cost first, in the figures the table below adds up to.
  const changed = await answers.locator("tbody tr").count();
  await expect(simulation.getByTestId("what-if-headline")).toHaveText(
    new RegExp(
      `^${deleted.toLocaleString("en")} originals? deleted, (at least )?${changed} answers? turns? insufficient within 90 days$`,
    ),
  );
  await expect(simulation.getByTestId("what-if-current")).toHaveText(
    /^Under the current policy: [\d,]+ originals? deleted, (at least )?\d+ answers? insufficient\.$/,
  );
  // One line at 1280 px: no taller than two lines' worth of its font would be.
  expect(
    await simulation
      .getByTestId("what-if-headline")
      .evaluate((e) => e.getBoundingClientRect().height < 2 * Number.parseFloat(getComputedStyle(e).fontSize)),
  ).toBe(true);
  // Sessions by their titles, not ids; classes and answers in words, never as enum names.
  const sessionLinks = answers.locator('a[href*="/sessions/"]');
  for (const text of await sessionLinks.allTextContents()) expect(text).not.toMatch(/^[0-9a-f]{8}$/);
  await expect(sessionLinks.first()).not.toHaveText("");
  const text = (await simulation.textContent()) ?? "";
  for (const name of ["SIDE_EFFECTING", "NARRATIVE", "STRUCTURED", "INSUFFICIENT_EVIDENCE", "ttlDays"])
    expect(text).not.toContain(name);
  // Dates stay on one line, on a phone too; the simulated page passes axe at both widths.
  await expectAccessible(page, "what-if simulated", 1280);
  await page.setViewportSize({ width: 390, height: 900 });
  for (const when of await simulation.locator("td.when time").all())
    expect(await when.evaluate((e) => e.getClientRects().length)).toBe(1);
  await expectAccessible(page, "what-if simulated", 390);
  await page.setViewportSize({ width: 1280, height: 900 });

  await simulation.getByRole("button", { name: "Save this policy" }).click();
  const confirm = page.getByRole("form", { name: "Confirm the policy change" });
  await expect(confirm.getByRole("list", { name: "Changes" })).toContainText("Side-effecting TTL (days): 730 → 1");
  await confirm.getByRole("button", { name: "Confirm and save" }).click();
  await expect(confirm.getByRole("alert")).toContainText("needs a reason");

  await confirm.getByLabel(/Reason/).fill("E2E: storage budget for side effects");
  await confirm.getByRole("button", { name: "Confirm and save" }).click();
  await expect(confirm.getByRole("status")).toContainText(`Saved as version ${version + 1}`);
  // The note warns about the TTL this save shortened, not the structured one it left below the horizon.
  await expect(confirm.getByRole("status")).toContainText("Side-effecting TTL (days): shorter than the evidence horizon");
  await expect(confirm.getByRole("status")).not.toContainText("Structured TTL");

  await page.goto(`${base}/audit`);
  const log = page.getByRole("table", { name: "Audit log" });
  const row = log
    .getByRole("row")
    .filter({ hasText: "Changed retention policy" })
    .filter({ hasText: "E2E: storage budget for side effects" });
  await expect(row.first()).toBeVisible();
  // The changed field in words, its key on hover.
  await expect(row.first().getByTitle("ttlDays.SIDE_EFFECTING", { exact: true })).toHaveText("Side-effecting TTL (days)");

  await page.goto(`${base}/retention/history`);
  const history = page.getByRole("table", { name: "Policy versions" });
  const saved = history.getByRole("row", { name: `Version ${version + 1}` });
  await expect(saved).toContainText("Side-effecting TTL (days): 730 → 1");
  await expect(saved).toContainText("E2E: storage budget for side effects");

  const previous = history.getByRole("row", { name: `Version ${version}` });
  await previous.getByRole("textbox", { name: "Reason" }).fill("E2E: undo");
  await previous.getByRole("button", { name: `Roll back to ${version}` }).click();
  await expect(page.getByRole("status").first()).toContainText(`saved as version ${version + 2}`);
  await page.reload();
  await expect(history.getByRole("row", { name: `Version ${version + 2}` })).toContainText(`rollback to ${version}`);
  await expect(history.getByRole("row", { name: `Version ${version + 2}` })).toContainText("Side-effecting TTL (days): 1 → 730");
});
