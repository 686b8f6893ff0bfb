import { expect, type Page, test } from "@playwright/test";
import { e2eDatabase } from "./support/e2e-database";
import { axe } from "./support/pages";
import { PASSWORD, USERS } from "./support/sign-in";

const encode = (text: string) => new TextEncoder().encode(text);

/**
 * A project of its own, the demo viewer a member of it: one session whose compactor asked the gate
 * without pointers (its two commands refused, kept verbatim) and whose retention owner shortened
 * those commands' TTL to two days (at risk), and one session a runtime compacted without asking.
 */
async function seedWatchedProject() {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { randomBytes } = await import("node:crypto");
  const { addMember, createProject } = await import("@/lib/server/admin");
  const { appendSpans, upsertSession } = await import("@/lib/server/ingest");
  const { candidateSummaryFor, reclaim } = await import("@/lib/server/gate");
  const { setOriginalExpiry } = await import("@/lib/server/provenance");
  const actor = { type: "SYSTEM" as const, label: "e2e" };
  const suffix = randomBytes(3).toString("hex");
  const project = await createProject({ slug: `watched-${suffix}`, name: `Watched ${suffix}` });
  await addMember({ projectId: project.id, email: USERS.viewer, role: "VIEWER" }, actor);

  const transcript = (title: string) =>
    upsertSession(project.id, { externalId: `${title}-${suffix}`, runtime: "claude-code", title: `${title} ${suffix}` }).then(
      async ({ session }) => {
        const spans = await appendSpans(project.id, session.id, [
          { seq: 0, kind: "MESSAGE", occurredAt: new Date(), body: encode("Restart the app and clear its cache.") },
          {
            seq: 1,
            kind: "TOOL_CALL",
            toolName: "Bash",
            occurredAt: new Date(),
            body: encode('{"command":"sudo systemctl restart app"}'),
          },
          {
            seq: 2,
            kind: "TOOL_CALL",
            toolName: "Bash",
            occurredAt: new Date(),
            body: encode('{"command":"rm -rf /var/cache/app"}'),
          },
        ]);
        return { session, spanIds: spans.map((s) => s.id) };
      },
    );

  const asked = await transcript("Asked first");
  for (const spanId of asked.spanIds.slice(1))
    await setOriginalExpiry({ projectId: project.id, spanId }, actor, new Date(Date.now() + 2 * 86_400_000), "Storage budget");
  const summary = await candidateSummaryFor(asked.session.id, asked.spanIds, "Restarted the app.", { pointers: false });
  const gated = await reclaim({
    projectId: project.id,
    sessionId: asked.session.id,
    selection: { spanIds: asked.spanIds },
    summary,
    dryRun: false,
    requester: "e2e",
  });
  const refused = gated.decisions.filter((d) => d.verdict === "REFUSE").length;

  const silent = await transcript("Never asked");
  await reclaim({
    projectId: project.id,
    sessionId: silent.session.id,
    selection: { spanIds: silent.spanIds },
    summary: await candidateSummaryFor(silent.session.id, silent.spanIds, "Did some work.", { pointers: false }),
    dryRun: false,
    observed: true,
    requester: "importer:claude-code",
  });
  return { slug: project.slug, refused, atRiskTitle: asked.session.title! };
}

async function signInAsViewer(page: Page) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(USERS.viewer);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

test("a project's overview shows its refusals, spans at risk and compactions without asking, with the numbers and links into the lists", async ({
  page,
}) => {
  const seeded = await seedWatchedProject();
  expect(seeded.refused).toBe(2);
  await signInAsViewer(page);
  await page.goto(`/projects/${seeded.slug}`);

  const refusals = page.getByRole("region", { name: "Refusals per day" });
  await expect(refusals.getByRole("img", { name: "2 refusals in the last 7 days" })).toBeVisible();
  await expect(refusals.getByRole("definition").first()).toHaveText("2");
  const unasked = page.getByRole("region", { name: "Compactions without asking" });
  await expect(unasked.getByRole("img", { name: /^1 compaction without asking the gate in the last 7 days/ })).toBeVisible();
  const lost = page.getByRole("region", { name: "Evidence lost" });
  await expect(lost.getByText("Spans at risk now")).toBeVisible();
  await expect(lost.locator("dd").first()).toHaveText("2");
  await expect(lost.getByText("No evidence lost in the last 7 days")).toBeVisible();
  const expiring = page.getByRole("region", { name: "Originals expiring this week" });
  await expect(expiring.getByRole("img", { name: /^2 originals/ })).toBeVisible();
  // The numbers behind a chart, for whoever cannot read bars.
  await refusals.getByText("The numbers").click();
  await expect(refusals.getByRole("table", { name: "Refusals per day: the numbers" }).getByRole("row")).toHaveCount(8);
  await page.screenshot({ path: "e2e/artifacts/overview.png", fullPage: true });

  // The range is kept in the URL; a range with nothing in it says so.
  await page.getByRole("navigation", { name: "Range" }).getByRole("link", { name: "Last 24 hours" }).click();
  await expect(page).toHaveURL(/\?range=24h$/);
  await expect(
    page.getByRole("region", { name: "Refusals per hour" }).getByRole("img", { name: "2 refusals in the last 24 hours" }),
  ).toBeVisible();
  await page.reload();
  await expect(page.getByRole("region", { name: "Refusals per hour" })).toBeVisible();

  // A figure leads to the list behind it, filtered, in the same range, and the list shows as many
  // sessions as the figure says.
  const atRiskSessions = page
    .getByRole("region", { name: "Evidence lost" })
    .locator("dt", { hasText: "Sessions with spans at risk" })
    .locator("xpath=following-sibling::dd[1]");
  const figure = Number(await atRiskSessions.textContent());
  expect(figure).toBeGreaterThan(0);
  await page.getByRole("link", { name: "See the sessions at risk" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${seeded.slug}/sessions\\?state=at-risk&range=24h$`));
  await expect(page.getByRole("link", { name: seeded.atRiskTitle })).toBeVisible();
  await expect(page.getByRole("table", { name: "Sessions" }).locator("tbody tr")).toHaveCount(figure);
});

test("an empty project's overview says plainly that nothing happened", async ({ page }) => {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { addMember, createProject } = await import("@/lib/server/admin");
  const { randomBytes } = await import("node:crypto");
  const project = await createProject({ slug: `quiet-${randomBytes(3).toString("hex")}`, name: "Quiet" });
  await addMember({ projectId: project.id, email: USERS.viewer, role: "VIEWER" }, { type: "SYSTEM", label: "e2e" });
  await signInAsViewer(page);
  await page.goto(`/projects/${project.slug}?range=30d`);
  await expect(page.getByText("No refusals in the last 30 days")).toBeVisible();
  await expect(page.getByText("No compactions without asking in the last 30 days")).toBeVisible();
  await expect(page.getByText("No originals held")).toBeVisible();
});

test("the overview has no serious accessibility violations at phone and desktop widths", async ({ page }) => {
  const seeded = await seedWatchedProject();
  await signInAsViewer(page);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/projects/${seeded.slug}`);
    await expect(page.getByRole("region", { name: "Refusals per day" }).getByRole("img")).toBeVisible();
    const results = await axe(page).analyze();
    const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious.map((v) => `${width}px: ${v.id} (${v.nodes.length})`)).toEqual([]);
    // Nothing wider than the screen: the charts and tables fit or scroll in their own box.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
  await page.screenshot({ path: "e2e/artifacts/overview-1280.png", fullPage: true });
});
