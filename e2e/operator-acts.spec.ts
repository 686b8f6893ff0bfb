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
  await page.getByLabel("Reason (required)").fill("kept for the yearly audit");
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
  await page.getByLabel("Reason (required)").fill("no longer needed");
  await page.getByRole("button", { name: "Set expiry" }).click();
  await expect(page.locator("p[role=alert]")).toContainText("admin");
});

test("a bulk pin by grid cell asks first, naming count, bytes and reason, and writes one audit event naming every span", async ({
  page,
}) => {
  const writes = ["/etc/app/a.yaml", "/etc/app/b.yaml", "/etc/app/c.yaml"].map((path) => ({
    kind: "TOOL_CALL" as const,
    toolName: "write_file",
    body: `{"path":"${path}","mode":"overwrite"}`,
  }));
  const seeded = await seedSession("bulk-cell", writes);
  const bytes = writes.reduce((sum, w) => sum + new TextEncoder().encode(w.body).length, 0);
  await signIn(page, "operator");
  await page.goto(`/projects/${seeded.projectSlug}/sessions/${seeded.sessionId}`);

  // The three writes share one cell: reach it by keyboard-named link and open it.
  const grid = page.getByRole("table", { name: "Spans by evidential class and provenance status" });
  const cell = grid.getByRole("link", { name: /^3 side-effecting spans, (durable|expiring)$/ });
  await cell.click();
  const acts = page.getByRole("form", { name: /^Retention acts for side-effecting × / });

  // No reason: said at once, nothing sent.
  await acts.getByRole("button", { name: "Pin all 3" }).click();
  await expect(acts.getByRole("alert")).toHaveText("Give a reason: the audit log records why originals were kept.");
  await acts.getByLabel("Reason (required)").fill("litigation hold E2E-17");
  await acts.getByRole("button", { name: "Pin all 3" }).click();
  const confirm = acts.getByRole("alertdialog", { name: "Confirm" });
  await expect(confirm).toContainText(`Pin 3 originals (${bytes} B)`);
  await expect(confirm).toContainText("litigation hold E2E-17");
  for (const id of seeded.spanIds) expect((await originalOf(id)).pinned).toBe(false);
  await confirm.getByRole("button", { name: "Confirm pin" }).click();
  await expect(acts.getByRole("status")).toHaveText("Pinned: 3 of 3.");
  for (const id of seeded.spanIds) expect((await originalOf(id)).pinned).toBe(true);

  // One event, read back from the audit page, naming every span and the reason.
  await page.goto(`/projects/${seeded.projectSlug}/audit?act=originals.pin`);
  const log = page.getByRole("table", { name: "Audit log" });
  const rows = log.getByRole("row").filter({ hasText: "Pinned originals in bulk" });
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText("operator@demo.local");
  await expect(rows).toContainText("litigation hold E2E-17");
  await rows.getByText("3 spans").first().click();
  for (const id of seeded.spanIds)
    await expect(rows.locator(`a[href="/projects/${seeded.projectSlug}/spans/${id}"]`).first()).toBeVisible();
});

test("a bulk act over the at-risk table with nothing ticked says so plainly", async ({ page }) => {
  await signIn(page, "operator");
  await page.goto("/projects/demo/retention");
  const acts = page.getByRole("form", { name: "Keep originals at risk" });
  await acts.getByLabel("Reason (required)").fill("nothing ticked");
  await acts.getByRole("button", { name: "Pin selected" }).click();
  await expect(acts.getByRole("alert")).toHaveText("Nothing is selected: tick at least one original first.");
  await expect(acts.getByRole("alertdialog")).toHaveCount(0);

  // Ticking two rows: the confirmation names them and the bytes they hold.
  const boxes = acts.getByRole("checkbox");
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  const held = await boxes.evaluateAll((all) =>
    all.slice(0, 2).reduce((sum, box) => sum + Number((box as HTMLInputElement).dataset.bytes), 0),
  );
  expect(held).toBeGreaterThan(0);
  await acts.getByRole("button", { name: "Pin selected" }).click();
  await expect(acts.getByRole("alertdialog", { name: "Confirm" })).toContainText("Pin 2 originals (");
  await acts.getByRole("button", { name: "Cancel" }).click();
  await expect(acts.getByRole("alertdialog")).toHaveCount(0);
});

test("after a bulk pin empties its cell, what the pin did stays on the page", async ({ page }) => {
  const seeded = await seedSession("bulk-empties", [
    { kind: "MESSAGE", body: "Let me check the release notes first." },
    { kind: "MESSAGE", body: "That sounds good, thanks." },
  ]);
  await signIn(page, "operator");
  await page.goto(`/projects/${seeded.projectSlug}/sessions/${seeded.sessionId}`);
  const grid = page.getByRole("table", { name: "Spans by evidential class and provenance status" });
  // Narrative originals expire before the horizon: a pin makes them durable, and the cell empties.
  await grid.getByRole("link", { name: "2 narrative spans, expiring" }).click();
  const acts = page.getByRole("form", { name: "Retention acts for narrative × expiring" });
  await acts.getByLabel("Reason (required)").fill("kept for the incident review");
  await acts.getByRole("button", { name: "Pin all 2" }).click();
  await acts.getByRole("button", { name: "Confirm pin" }).click();
  await expect(grid.getByRole("link", { name: "2 narrative spans, durable" })).toBeVisible();
  await expect(grid.locator('td[data-cell="NARRATIVE:EXPIRING"]')).toHaveText("0");
  await expect(acts.getByRole("status")).toHaveText("Pinned: 2 of 2.");
  await expect(acts.getByRole("button")).toHaveCount(0);
});

test("the gate form as it opens asks about spans not reclaimed yet, and the gate answers", async ({ page }) => {
  await signIn(page, "operator");
  await page.goto("/projects/demo/sessions");
  // The staging session: its first spans were reclaimed by the demo's compactions.
  await page.getByRole("link", { name: "Configure the app for staging" }).click();
  const gate = page.getByRole("region", { name: "Run gate" });
  await gate.getByRole("button", { name: "Run gate" }).click();
  await expect(gate.getByRole("status")).toContainText("Dry run: nothing was recorded.");
  await expect(gate.getByRole("alert")).toHaveCount(0);
  await expect(gate.getByRole("table", { name: "Gate verdicts" }).locator("tbody tr").first()).toBeVisible();
});
