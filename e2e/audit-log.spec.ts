import { randomBytes, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { e2eDatabase } from "./support/e2e-database";
import { signInAs } from "./support/sign-in";

const ADA = "ada@audit.e2e";
const BO = "bo@audit.e2e";

/**
 * A project of its own with a member to sign in as, and 1,130 audit events written through the
 * audit log's own use case (1,000 pins by Ada, 100 unpins by Bo, 30 sweeps), a second apart, the
 * first of them two days ago. Returns how many events the project's log holds in all (creating
 * the project and adding the member are audited too).
 */
async function seedAuditedProject(label: string) {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { addMember, createProject, createUser } = await import("@/lib/server/admin");
  const { writeAudits, SWEEPER } = await import("@/lib/server/audit");
  const { db } = await import("@/lib/db/client");
  const suffix = randomBytes(3).toString("hex");
  const project = await createProject({ slug: `${label}-${suffix}`, name: `E2E ${label}` });
  const member = { email: `auditor-${suffix}@e2e.local`, password: `e2e-password-${randomBytes(6).toString("hex")}` };
  const actor = { type: "SYSTEM" as const, label: "e2e" };
  await createUser({ email: member.email, role: "VIEWER", password: member.password }, actor);
  await addMember({ projectId: project.id, email: member.email, role: "VIEWER" }, actor);
  const start = Date.now() - 2 * 86_400_000;
  const events = Array.from({ length: 1_130 }, (_, i) => {
    const base = { projectId: project.id, targetType: "span" as const, targetId: randomUUID(), at: new Date(start + i * 1000) };
    if (i < 1_000)
      return {
        ...base,
        actor: { type: "USER" as const, label: ADA },
        act: "original.pin" as const,
        before: { pinned: false as const },
        after: { pinned: true as const },
        reason: i === 0 ? "the very first hold" : `hold ${i}`,
      };
    if (i < 1_100)
      return {
        ...base,
        actor: { type: "USER" as const, label: BO },
        act: "original.unpin" as const,
        before: { pinned: true as const },
        after: { pinned: false as const },
        // Typed text a spreadsheet would run as a formula.
        reason: `=HYPERLINK("http://evil.example/${i}")`,
      };
    return {
      ...base,
      actor: SWEEPER,
      act: "original.sweep" as const,
      before: { expiresAt: new Date(start), present: true as const },
      after: { present: false as const, movedToLost: [base.targetId] },
      reason: "TTL passed and the original was not pinned",
    };
  });
  await writeAudits(db(), events);
  const total = await db().auditLog.count({ where: { projectId: project.id } });
  return { slug: project.slug, member, total };
}

/** "Page 3 of 12 · 581 events", above the log. */
function summary(page: Page) {
  return page.locator(".audit-log-summary p");
}

test("an auditor pages through 1,000+ events, filters by act and person, and downloads the CSV", async ({ page }) => {
  test.setTimeout(90_000);
  const seeded = await seedAuditedProject("audit-log");
  const pages = Math.ceil(seeded.total / 50);
  await signInAs(page, seeded.member);

  await page.goto(`/projects/${seeded.slug}/audit`);
  await expect(summary(page)).toHaveText(`Page 1 of ${pages} · ${seeded.total.toLocaleString("en")} events`);
  const log = page.getByRole("table", { name: "Audit log" });
  await expect(log.locator("tbody tr")).toHaveCount(50);

  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/[?&]page=2$/);
  await expect(summary(page)).toContainText(`Page 2 of ${pages}`);

  await page.getByRole("link", { name: "Last page" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]page=${pages}$`));
  await expect(summary(page)).toContainText(`Page ${pages} of ${pages}`);
  await expect(log.locator("tbody tr")).toHaveCount(seeded.total - (pages - 1) * 50);
  // Newest first: the oldest event closes the last page, in words, its code on hover, its span linked.
  const oldest = log.locator("tbody tr").last();
  await expect(oldest).toContainText("the very first hold");
  await expect(oldest.getByTitle("original.pin")).toHaveText("Pinned original");
  await expect(oldest.getByRole("link", { name: /^span [0-9a-f]{8}$/ })).toHaveAttribute(
    "href",
    new RegExp(`^/projects/${seeded.slug}/spans/`),
  );
  await expect(oldest.getByTitle("pinned", { exact: true })).toHaveText("Pinned");
  await expect(page.getByRole("link", { name: "Next →" })).toHaveCount(0);

  // By act: only Bo's unpins.
  const filters = page.getByRole("form", { name: "Filter the audit log" });
  await filters.locator('select[name="act"]').selectOption({ label: "Unpinned original" });
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/[?&]act=original\.unpin/);
  await expect(summary(page)).toHaveText("Page 1 of 2 · 100 events");
  await expect(log.locator("tbody tr").filter({ hasNotText: "Unpinned original" })).toHaveCount(0);
  await expect(log.locator("tbody tr").filter({ hasText: BO })).toHaveCount(50);

  // By person, the act kept: Ada never unpinned.
  await filters.locator('select[name="person"]').selectOption(ADA);
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("No event matches these filters.")).toBeVisible();
  // By person alone.
  await filters.locator('select[name="act"]').selectOption({ label: "Any act" });
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(summary(page)).toHaveText("Page 1 of 20 · 1,000 events");
  await expect(page).toHaveURL(new RegExp(`[?&]person=${encodeURIComponent(ADA)}`));

  // The CSV of Bo's unpins: every one of them (not one page), formulas defused.
  await filters.locator('select[name="person"]').selectOption(BO);
  await filters.locator('select[name="act"]').selectOption({ label: "Unpinned original" });
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(summary(page)).toHaveText("Page 1 of 2 · 100 events");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^audit-log-${seeded.slug}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const csv = await readFile((await download.path())!, "utf8");
  const records = csv.split("\r\n").filter(Boolean);
  expect(records[0]).toBe(
    "when,who,who_type,act,act_code,target,target_type,target_id,changes,reason,before_json,after_json,event_id",
  );
  expect(records).toHaveLength(101);
  for (const record of records.slice(1)) {
    expect(record).toContain(`,${BO},person,Unpinned original,original.unpin,span `);
    expect(record).toContain(",pinned: yes -> no,");
    expect(record).toMatch(/,"'=HYPERLINK\(""http:\/\/evil\.example\/\d+""\)",/);
  }
});

test("at 390 px the log is cards, no wider than the screen; a stranger to the project gets 404 for its CSV", async ({
  page,
  browser,
}) => {
  const seeded = await seedAuditedProject("audit-narrow");
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, seeded.member);
  await page.goto(`/projects/${seeded.slug}/audit?act=original.sweep`);
  await expect(summary(page)).toHaveText("Page 1 of 1 · 30 events");
  const card = page.getByRole("table", { name: "Audit log" }).locator("tbody tr").first();
  await expect(card).toContainText("Deleted expired original");
  await expect(card).toContainText("1 span");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // A card (a flex box of labelled lines), not a row of a table wider than the screen.
  expect(await card.evaluate((row) => getComputedStyle(row).display)).not.toBe("table-row");

  const other = await seedAuditedProject("audit-stranger");
  const context = await browser.newContext();
  const stranger = await context.newPage();
  await signInAs(stranger, other.member);
  const foreign = await stranger.request.get(`/projects/${seeded.slug}/audit/export.csv`);
  expect(foreign.status()).toBe(404);
  expect(await foreign.text()).not.toContain(ADA);
  const own = await stranger.request.get(`/projects/${other.slug}/audit/export.csv?act=original.sweep`);
  expect(own.status()).toBe(200);
  expect(own.headers()["content-disposition"]).toMatch(/^attachment; filename="audit-log-/);
  expect((await own.text()).split("\r\n").filter(Boolean)).toHaveLength(31);
  await context.close();
});
