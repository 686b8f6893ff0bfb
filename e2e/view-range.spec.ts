/**
 * One time range per project view: picked on the overview, it travels in the URL through the
 * navigation to Sessions, Refusals, Evidence and Audit and back, each page keeping to it; a session
 * and a refusal of 20 days ago are inside 30 days and outside 7. A session's last activity is its
 * transcript's time, received today.
 */
import { randomBytes } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { formatDay } from "@/components/format";
import { e2eDatabase } from "./support/e2e-database";
import { signIn } from "./support/sign-in";

const DAY_MS = 86_400_000;

async function seed() {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { createProject } = await import("@/lib/server/admin");
  const { addDemoMembers } = await import("@/lib/demo/load");
  const { appendSpans, upsertSession } = await import("@/lib/server/ingest");
  const { db } = await import("@/lib/db/client");
  const { refusalRowsOf } = await import("@/lib/server/dashboard/refusals.testkit");
  const tag = randomBytes(3).toString("hex");
  const project = await createProject({ slug: `view-range-${tag}`, name: "E2E view range" });
  await addDemoMembers(project.id);
  const session = async (label: string, daysAgo: number) => {
    const { session } = await upsertSession(project.id, {
      externalId: `${label}-${tag}`,
      runtime: "test",
      title: `${label} work`,
    });
    const at = new Date(Date.now() - daysAgo * DAY_MS);
    const [span] = await appendSpans(project.id, session.id, [
      { seq: 0, kind: "TOOL_CALL", toolName: "Bash", occurredAt: at, body: new TextEncoder().encode('{"command":"ls"}') },
    ]);
    await db().refusalEvent.createMany({
      data: refusalRowsOf({ projectId: project.id, sessionId: session.id, spanId: span!.id }, [
        {
          occurredAt: at,
          reason: `${label}: a summary would have lost the call`,
          requester: "runtime:e2e",
          cells: [["SIDE_EFFECTING", "NONE"]],
        },
      ]),
    });
  };
  await session("Recent", 0);
  await session("Older", 20);
  return project.slug;
}

async function follow(page: Page, section: string, range: string) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: section, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]range=${range}(&|$)`));
}

test("a range picked on the overview is the range of Sessions, Refusals, Evidence and Audit, and back", async ({ page }) => {
  // The days the test runs on: a run across midnight (UTC) may seed on one and check on the next.
  const began = Date.now();
  const slug = await seed();
  await signIn(page, "admin");

  // 30 days: both sessions and both refusals.
  await page.goto(`/projects/${slug}?range=30d`);
  await follow(page, "Sessions", "30d");
  const sessions = page.getByRole("table", { name: "Sessions" });
  await expect(sessions.getByRole("link", { name: "Recent work" })).toBeVisible();
  await expect(sessions.getByRole("link", { name: "Older work" })).toBeVisible();
  // Last activity is the transcript's own time; when it was received is said as such.
  const older = sessions.getByRole("row").filter({ hasText: "Older work" });
  const year = new Date().getUTCFullYear();
  const days = (ago: number) => [began, Date.now()].map((t) => formatDay(new Date(t - ago), year)).join("|");
  await expect(older.locator("td.when > time")).toHaveText(new RegExp(`^(${days(20 * DAY_MS)}) \\d{2}:\\d{2}$`));
  await expect(older.locator("td.when .muted-note")).toHaveText(new RegExp(`^received (${days(0)}) \\d{2}:\\d{2}$`));

  // Picked on the overview: 7 days. The session and refusal of 20 days ago fall outside.
  await follow(page, "Overview", "30d");
  await page.getByRole("navigation", { name: "Range" }).getByRole("link", { name: "Last 7 days" }).click();
  await expect(page).toHaveURL(/[?&]range=7d/);
  await follow(page, "Sessions", "7d");
  await expect(sessions.getByRole("link", { name: "Recent work" })).toBeVisible();
  await expect(sessions.getByRole("link", { name: "Older work" })).toHaveCount(0);
  await expect(page.getByRole("form", { name: "Filter sessions" }).getByLabel("Last activity within")).toHaveValue("7d");

  await follow(page, "Refusals", "7d");
  const feed = page.getByRole("table", { name: "Refusal events" });
  await expect(feed.getByText("Recent: a summary would have lost the call")).toBeVisible();
  await expect(feed.getByText("Older: a summary would have lost the call")).toHaveCount(0);
  await expect(page.getByRole("form", { name: "Filter refusals" }).getByLabel("Within")).toHaveValue("7d");

  await follow(page, "Evidence", "7d");
  await expect(page.getByRole("form", { name: "Ask a question" }).getByLabel("Within")).toHaveValue("7d");

  await follow(page, "Audit log", "7d");
  await expect(page.getByRole("form", { name: "Filter the audit log" }).getByLabel("Within")).toHaveValue("7d");

  await follow(page, "Overview", "7d");
  await expect(page.getByRole("navigation", { name: "Range" }).getByRole("link", { name: "Last 7 days" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  // A view with no range in its address shows every time: the lists' default.
  await page.goto(`/projects/${slug}/refusals`);
  await expect(feed.getByText("Older: a summary would have lost the call")).toBeVisible();
});

test("days picked on a list are the overview's too: it counts in them and its links keep them", async ({ page }) => {
  const slug = await seed();
  await signIn(page, "admin");
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);
  const from = day(25);
  const to = day(15);
  const year = new Date().getUTCFullYear();

  // Days on the refusals list, carried to the overview by the navigation.
  await page.goto(`/projects/${slug}/refusals?from=${from}&to=${to}`);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]from=${from}&to=${to}$`));
  const when = `from ${formatDay(from, year)} to ${formatDay(to, year)}`;
  await expect(page.getByText(`Counting ${when} (UTC days).`)).toBeVisible();
  // No preset is the current range while days are.
  await expect(page.getByRole("navigation", { name: "Range" }).locator("[aria-current]")).toHaveCount(0);
  // The refusal of 20 days ago is in the days, today's is not: eleven daily bars, one refusal.
  const refusals = page.getByRole("region", { name: "Refusals per day" });
  await expect(refusals.getByRole("img", { name: `1 refusal ${when}` })).toBeVisible();
  await refusals.getByText("The numbers").click();
  await expect(refusals.getByRole("table", { name: "Refusals per day: the numbers" }).getByRole("row")).toHaveCount(12);

  // Its link into the refusals keeps the days, and the list shows the same one refusal.
  await refusals.getByRole("link", { name: "See the 1 refusal" }).click();
  await expect(page).toHaveURL(new RegExp(`/refusals\\?show=refusals&from=${from}&to=${to}$`));
  // What the link said is what the list counts.
  await expect(page.getByTestId("list-total")).toHaveText("1 refusal in 1 compaction");
  const feed = page.getByRole("table", { name: "Refusal events" });
  await expect(feed.getByText("Older: a summary would have lost the call")).toBeVisible();
  await expect(feed.getByText("Recent: a summary would have lost the call")).toHaveCount(0);

  // Back on the overview, a preset replaces the days.
  await page.goto(`/projects/${slug}?from=${from}&to=${to}`);
  await page.getByRole("navigation", { name: "Range" }).getByRole("link", { name: "Last 7 days" }).click();
  await expect(page).toHaveURL(/\?range=7d$/);
  await expect(
    page.getByRole("region", { name: "Refusals per day" }).getByRole("img", { name: "1 refusal in the last 7 days" }),
  ).toBeVisible();
});
