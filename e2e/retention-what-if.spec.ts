import { expect, test } from "@playwright/test";
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

  const proposal = page.getByRole("form", { name: "Proposed policy" });
  await proposal.getByLabel("side-effecting TTL (days)").fill("1");
  await proposal.getByRole("button", { name: "Simulate" }).click();

  const simulation = page.getByRole("region", { name: "Simulation" });
  await expect(simulation.getByRole("img", { name: "Stored bytes by class: proposed policy" })).toBeVisible({ timeout: 30_000 });
  // Deletions by day: some day of the proposal deletes originals.
  const days = simulation.getByRole("table", { name: "Day by day" });
  const proposedDeleted = days.locator("tbody tr td:nth-child(6)");
  await expect(proposedDeleted.first()).toBeVisible();
  expect((await proposedDeleted.allTextContents()).some((n) => Number(n.replace(/,/g, "")) > 0)).toBe(true);
  // At least one answer turns INSUFFICIENT_EVIDENCE: the demo's staging-config session.
  const answers = simulation.getByRole("table", { name: "Answers affected" });
  await expect(answers.getByRole("row").filter({ hasText: "INSUFFICIENT_EVIDENCE" }).first()).toBeVisible();
  await expect(answers.getByRole("row").filter({ hasText: "Did we modify system config?" }).first()).toBeVisible();

  await simulation.getByRole("button", { name: "Save this policy" }).click();
  const confirm = page.getByRole("form", { name: "Confirm the policy change" });
  await expect(confirm.getByRole("list", { name: "Changes" })).toContainText("Side-effecting TTL (days): 730 → 1");
  await confirm.getByRole("button", { name: "Confirm and save" }).click();
  await expect(confirm.getByRole("alert")).toContainText("needs a reason");

  await confirm.getByLabel(/Reason/).fill("E2E: storage budget for side effects");
  await confirm.getByRole("button", { name: "Confirm and save" }).click();
  await expect(confirm.getByRole("status")).toContainText(`Saved as version ${version + 1}`);

  await page.goto(`${base}/audit`);
  const log = page.getByRole("table", { name: "Audit log" });
  const row = log
    .getByRole("row")
    .filter({ hasText: "Changed retention policy" })
    .filter({ hasText: "E2E: storage budget for side effects" });
  await expect(row.first()).toBeVisible();
  await expect(row.first()).toContainText("ttlDays.SIDE_EFFECTING");

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
