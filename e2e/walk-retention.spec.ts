/**
 * The retention owner's walk: simulate a shorter structured TTL, read the what-if's one-sentence
 * headline, save the proposal with a reason, find it in the policy history, roll it back with a
 * reason, and find the rollback as a new version that restores the TTL.
 */
import { expect, test } from "@playwright/test";
import { seedDemoProject } from "./support/seed";
import { signIn } from "./support/sign-in";

test("retention owner: a shorter TTL simulated, saved with a reason, in the history, rolled back as a new version", async ({
  page,
}) => {
  // A copy of the demo of its own: a policy saved here would change what other tests see.
  const base = `/projects/${(await seedDemoProject("walk-retention")).projectSlug}`;
  await signIn(page, "admin");
  await page.goto(`${base}/retention`);
  const version = Number(await page.getByTestId("policy-version").textContent());
  expect(Number.isInteger(version)).toBe(true);
  const proposal = page.getByRole("form", { name: "Proposed policy" });
  const ttl = proposal.getByLabel("Structured TTL (days)", { exact: true });
  const before = Number(await ttl.inputValue());
  const shorter = 7;
  expect(before).toBeGreaterThan(shorter);

  // The simulation leads with what the proposal costs, in one sentence.
  await ttl.fill(String(shorter));
  await proposal.getByRole("button", { name: "Simulate" }).click();
  const simulation = page.getByRole("region", { name: "Simulation" });
  await expect(simulation.getByTestId("what-if-headline")).toHaveText(
    /^[\d,]+ originals? deleted, (at least )?[\d,]+ answers? turns? insufficient within \d+ days$/,
    { timeout: 30_000 },
  );
  // A shorter structured TTL deletes something in the demo, which holds structured originals.
  expect(
    Number((await simulation.getByTestId("what-if-headline").textContent())!.split(" ")[0]!.replace(/,/g, "")),
  ).toBeGreaterThan(0);
  await expect(simulation.getByRole("img", { name: "Bytes stored: current and proposed policy" })).toBeVisible();

  // Saved with a reason (without one it is refused).
  await simulation.getByRole("button", { name: "Save this policy" }).click();
  const confirm = page.getByRole("form", { name: "Confirm the policy change" });
  await expect(confirm.getByRole("list", { name: "Changes" })).toContainText(`Structured TTL (days): ${before} → ${shorter}`);
  await confirm.getByRole("button", { name: "Confirm and save" }).click();
  await expect(confirm.getByRole("alert")).toContainText("needs a reason");
  await confirm.getByLabel(/Reason/).fill("Walk: structured originals cost too much");
  await confirm.getByRole("button", { name: "Confirm and save" }).click();
  await expect(confirm.getByRole("status")).toContainText(`Saved as version ${version + 1}`);

  // The history names the new version, its change and its reason.
  await page.getByRole("link", { name: "History" }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/retention/history$`));
  const history = page.getByRole("table", { name: "Policy versions" });
  const saved = history.getByRole("row", { name: `Version ${version + 1}`, exact: true });
  await expect(saved).toContainText(`Structured TTL (days): ${before} → ${shorter}`);
  await expect(saved).toContainText("Walk: structured originals cost too much");
  await expect(saved).toContainText("in force");

  // Rolled back to the version before, with a reason: a new version, not an erased one.
  const previous = history.getByRole("row", { name: `Version ${version}`, exact: true });
  await previous.getByRole("textbox", { name: "Reason" }).fill("Walk: the auditors need a year");
  await previous.getByRole("button", { name: `Roll back to ${version}` }).click();
  await expect(page.getByRole("status").first()).toContainText(`saved as version ${version + 2}`);
  await page.reload();
  const rollback = history.getByRole("row", { name: `Version ${version + 2}`, exact: true });
  await expect(rollback).toContainText(`${version + 2} (rollback to ${version})`);
  await expect(rollback).toContainText(`Structured TTL (days): ${shorter} → ${before}`);
  await expect(rollback).toContainText("Walk: the auditors need a year");
  await expect(rollback).toContainText("in force");
  // The saved version stays in the history as it was.
  await expect(saved).toContainText(`Structured TTL (days): ${before} → ${shorter}`);
  await expect(saved).not.toContainText("in force");

  // The retention page is back on the old TTL, under the new version.
  await page.getByRole("link", { name: "Back to retention" }).click();
  await expect(page.getByTestId("policy-version")).toHaveText(String(version + 2));
  await expect(proposal.getByLabel("Structured TTL (days)", { exact: true })).toHaveValue(String(before));
});
