/**
 * The ops person's walk: "what was lost this week in compactions nobody asked the gate about". From
 * the overview at 7 days, through the sessions compacted without asking, into one session's grid and
 * the rows behind its red cell, and on to the refusal feed: the same counts on each page, the range
 * carried along every link. A compaction of 20 days ago is outside the week and stays out.
 */
import { randomBytes } from "node:crypto";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { e2eDatabase } from "./support/e2e-database";
import { signIn } from "./support/sign-in";

const DAY_MS = 86_400_000;
const RESTART = '{"command":"sudo systemctl restart app"}';
const REMOVE = '{"command":"rm -rf /var/cache/app"}';

/**
 * A project of its own: two sessions whose runtime compacted them without asking the gate and
 * without pointers, one today and one 20 days ago; each replaced a message and two commands.
 */
async function seed() {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { createProject } = await import("@/lib/server/admin");
  const { addDemoMembers } = await import("@/lib/demo/load");
  const { appendSpans, upsertSession } = await import("@/lib/server/ingest");
  const { candidateSummaryFor, reclaim } = await import("@/lib/server/gate");
  const tag = randomBytes(3).toString("hex");
  const project = await createProject({ slug: `walk-ops-${tag}`, name: `Walk ops ${tag}` });
  await addDemoMembers(project.id);
  const compactedWithoutAsking = async (title: string, daysAgo: number) => {
    const at = new Date(Date.now() - daysAgo * DAY_MS);
    const { session } = await upsertSession(project.id, { externalId: `${title}-${tag}`, runtime: "claude-code", title });
    const spans = await appendSpans(
      project.id,
      session.id,
      [
        { kind: "MESSAGE" as const, body: "Restart the app and clear its cache." },
        { kind: "TOOL_CALL" as const, toolName: "Bash", body: RESTART },
        { kind: "TOOL_CALL" as const, toolName: "Bash", body: REMOVE },
      ].map((s, seq) => ({ ...s, seq, occurredAt: at, body: new TextEncoder().encode(s.body) })),
    );
    const spanIds = spans.map((s) => s.id);
    await reclaim({
      projectId: project.id,
      sessionId: session.id,
      selection: { spanIds },
      summary: await candidateSummaryFor(session.id, spanIds, "Did some maintenance.", { pointers: false }),
      dryRun: false,
      observed: true,
      at,
      requester: "importer:claude-code",
    });
    return { id: session.id, title };
  };
  const recent = await compactedWithoutAsking(`Cache cleanup ${tag}`, 0);
  const older = await compactedWithoutAsking(`Old cleanup ${tag}`, 20);
  return { slug: project.slug, recent, older };
}

/** The figure of an overview panel by its label. */
function figure(panel: Locator, label: string): Locator {
  return panel.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]");
}

/** How many lines an element's text takes. */
function lines(element: Locator): Promise<number> {
  return element.evaluate((e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
}

/** Follows a link of the main navigation and expects the 7-day range in the address it lands on. */
async function navigate(page: Page, section: string) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: section, exact: true }).click();
  await expect(page).toHaveURL(/[?&]range=7d(&|$)/);
}

test("ops: what was lost this week in compactions nobody asked the gate about, from the overview to the rows", async ({
  page,
}) => {
  const seeded = await seed();
  await signIn(page, "operator");

  // The overview over the last 7 days: one compaction without asking (the older one is outside).
  await page.goto(`/projects/${seeded.slug}?range=7d`);
  const unasked = page.getByRole("region", { name: "Compactions without asking" });
  await expect(
    unasked.getByRole("img", { name: /^1 compaction without asking the gate in the last 7 days, replacing 3 spans$/ }),
  ).toBeVisible();
  await expect(figure(unasked, "Without asking")).toHaveText("1");
  await expect(figure(unasked, "Spans they replaced")).toHaveText("3");
  await expect(figure(unasked, "Asked the gate")).toHaveText("0");
  // On a phone too, each figure's label sits on one line beside its number.
  await page.setViewportSize({ width: 390, height: 900 });
  for (const label of ["Without asking", "Spans they replaced", "Asked the gate"]) {
    const term = unasked.locator("dt", { hasText: new RegExp(`^${label}$`) });
    const [dt, dd] = await Promise.all([term.boundingBox(), figure(unasked, label).boundingBox()]);
    expect(dd!.y).toBe(dt!.y);
    expect(dd!.x).toBeGreaterThan(dt!.x + dt!.width);
    expect(await lines(term)).toBe(1);
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  // Its link leads to the sessions compacted without asking, in the same week.
  await unasked.getByRole("link", { name: "See the sessions compacted without asking" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${seeded.slug}/sessions\\?state=unasked&range=7d$`));
  const sessions = page.getByRole("table", { name: "Sessions" });
  await expect(sessions.locator("tbody tr")).toHaveCount(1);
  await expect(sessions.getByRole("link", { name: seeded.older.title })).toHaveCount(0);
  const row = sessions.getByRole("row").filter({ hasText: seeded.recent.title });
  await expect(row.getByTestId("unasked-compactions")).toHaveText("1");
  // Both commands were replaced without a pointer, and the summary that replaced them stands for
  // them (its class and provenance are its roots'): red, nothing amber.
  await expect(row.getByTestId("lost")).toHaveText("3");
  await expect(row.getByTestId("at-risk")).toHaveText("0");
  const listedLost = Number(await row.getByTestId("lost").textContent());

  // The session keeps the range; its grid's red cells add up to the list's count.
  await row.getByRole("link", { name: seeded.recent.title }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${seeded.recent.id}\\?range=7d$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(seeded.recent.title);
  const grid = page.getByRole("table", { name: "Spans by evidential class and provenance status" });
  await expect(grid.locator("td.lost").first()).toBeVisible();
  const red = await grid.locator("td.lost").evaluateAll((tds) => tds.reduce((n, td) => n + Number(td.textContent), 0));
  expect(red).toBe(listedLost);
  await expect(grid.locator("td.risk")).toHaveCount(0);
  expect(await lines(grid.getByRole("rowheader", { name: "Side-effecting" }))).toBe(1);
  await expect(page.getByTestId("no-pointer-note")).toContainText("without pointing to their originals");

  // The red cell opens to its spans; each row says what the span said, and what replaced it.
  await grid.getByRole("link", { name: `${listedLost} side-effecting spans, no pointer` }).click();
  await expect(page).toHaveURL(/[?&]class=SIDE_EFFECTING&provenance=NONE&range=7d#spans$/);
  await expect(page.getByRole("heading", { name: "Spans: side-effecting, no pointer" })).toBeVisible();
  const rows = page.getByTestId("span-list").locator("tbody tr");
  await expect(rows).toHaveCount(listedLost);
  const says = (text: string) => rows.filter({ hasText: text }).getByTestId("span-says");
  await expect(says(RESTART).locator("summary")).toHaveText(`Bash ${RESTART}`);
  await expect(says(REMOVE).locator("summary")).toHaveText(`Bash ${REMOVE}`);
  await says(REMOVE).locator("summary").click();
  await expect(says(REMOVE)).toContainText("The summary that replaced it saysDid some maintenance.");
  await expect(says(REMOVE).getByTestId("says-dropped")).toContainText(/command/);
  await expect(rows.filter({ hasText: "Did some maintenance." }).first()).toBeVisible();

  // The refusal feed, reached from the session, is still this week: the one compaction, its spans.
  await navigate(page, "Refusals");
  await expect(page.getByRole("form", { name: "Filter refusals" }).getByLabel("Within")).toHaveValue("7d");
  const feed = page.getByRole("table", { name: "Refusal events" });
  const compactions = feed.getByTestId("unasked-compaction");
  await expect(compactions).toHaveCount(1);
  // Counted as the overview counted it, and as many as the list shows.
  await expect(page.getByTestId("list-total")).toHaveText("1 compaction without asking");
  await expect(page.getByTestId("list-window")).toHaveText("Rows 1–1 of 1, newest first");
  await expect(compactions).toContainText(seeded.recent.title);
  await expect(compactions).toContainText(
    "The runtime replaced 3 spans without asking the gate; the gate would have refused 2 of them.",
  );

  // And back to the overview at the same range.
  await navigate(page, "Overview");
  await expect(page.getByRole("navigation", { name: "Range" }).getByRole("link", { name: "Last 7 days" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(figure(unasked, "Without asking")).toHaveText("1");
});
