import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { axe } from "./support/pages";
import { seedSession, seedSkippedRecords } from "./support/seed";
import { signIn } from "./support/sign-in";

/**
 * A session with calls that failed, succeeded and were declined, a subagent's spans and two records
 * its import skipped (one reason carrying markup, which must show as text).
 */
const HOSTILE_REASON = `not valid JSON: <img src=x onerror="window.__pwned = 1">`;

async function seedIncompleteSession() {
  const seeded = await seedSession("fidelity", [
    { kind: "MESSAGE", body: "Clean the build and check the config", sourceLine: 1 },
    {
      kind: "TOOL_CALL",
      toolName: "Bash",
      body: '{"command":"rm -rf /tmp/build"}',
      outcome: "FAILED",
      exitCode: 1,
      sourceLine: 2,
    },
    {
      kind: "TOOL_RESULT",
      body: "rm: cannot remove '/tmp/build': Permission denied",
      outcome: "FAILED",
      exitCode: 1,
      sourceLine: 3,
    },
    {
      kind: "TOOL_CALL",
      toolName: "Bash",
      body: '{"command":"sudo rm -rf /tmp/build"}',
      outcome: "SUCCEEDED",
      exitCode: 0,
      sourceLine: 4,
    },
    { kind: "TOOL_RESULT", body: "removed", outcome: "SUCCEEDED", exitCode: 0, sourceLine: 5 },
    {
      kind: "TOOL_CALL",
      toolName: "Read",
      body: '{"file_path":"/etc/app/conf.yaml"}',
      outcome: "SUCCEEDED",
      agentId: "explorer-1",
      agentType: "Explore",
      sourceLine: 7,
    },
    { kind: "TOOL_RESULT", body: "port: 8080", outcome: "SUCCEEDED", agentId: "explorer-1", agentType: "Explore", sourceLine: 8 },
    {
      kind: "TOOL_CALL",
      toolName: "Bash",
      body: '{"command":"systemctl restart app"}',
      outcome: "DECLINED",
      agentId: "explorer-1",
      agentType: "Explore",
      sourceLine: 9,
    },
    {
      kind: "TOOL_RESULT",
      body: "The user declined this command",
      outcome: "DECLINED",
      agentId: "explorer-1",
      agentType: "Explore",
      sourceLine: 10,
    },
  ]);
  await seedSkippedRecords(seeded.sessionId, [
    { line: 12, reason: HOSTILE_REASON },
    { line: 15, reason: "tool result without its call" },
  ]);
  return seeded;
}

// Each test signs in and loads two or three server-rendered pages, some with an axe pass: room for a busy machine.
test.describe.configure({ timeout: 60_000 });

let seeded: Awaited<ReturnType<typeof seedIncompleteSession>>;
/** A custom question over the seeded session: any command. */
let EVIDENCE: string;

test.beforeAll(async () => {
  seeded = await seedIncompleteSession();
  EVIDENCE = `/projects/${seeded.projectSlug}/evidence?session=${seeded.sessionId}&q=custom&kind=COMMAND`;
});

async function expectNoSeriousViolations(page: Page) {
  const results = await axe(page).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${page.url()}: ${v.id} (${v.nodes.length})`)).toEqual([]);
}

/** The seqs the transcript lists, in order. */
async function listedSeqs(page: Page): Promise<string[]> {
  return page.getByTestId("span-list").locator("tbody tr td:first-child").allTextContents();
}

test("a span's page names its call's outcome, exit code, agent and source line", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto(`/projects/${seeded.projectSlug}/spans/${seeded.spanIds[1]}`);
  const outcome = page.getByTestId("outcome");
  await expect(outcome).toHaveText("failed");
  await expect(outcome.locator("[title]")).toHaveAttribute("title", "Outcome FAILED");
  await expect(page.getByTestId("exit-code")).toHaveText("1");
  await expect(page.getByTestId("agent")).toHaveText("main agent");
  await expect(page.getByTestId("source-line")).toHaveText("line 2 of the imported file");

  await page.goto(`/projects/${seeded.projectSlug}/spans/${seeded.spanIds[7]}`);
  await expect(page.getByTestId("outcome")).toHaveText("declined");
  await expect(page.getByTestId("exit-code")).toHaveText("not recorded");
  await expect(page.getByTestId("agent")).toHaveText("subagent explorer-1 (Explore)");
  await expect(page.getByTestId("source-line")).toHaveText("line 9 of the imported file");
  await page.screenshot({ path: "e2e/artifacts/fidelity-span.png", fullPage: true });
  await expectNoSeriousViolations(page);
});

test("a session's page lists the records its import skipped, and each span's agent and outcome", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await signIn(page, "viewer");
  await page.goto(`/projects/${seeded.projectSlug}/sessions/${seeded.sessionId}`);

  const skipped = page.getByTestId("skipped-records");
  await expect(skipped).toContainText("no evidence question answers NO over this session");
  const rows = skipped.getByRole("table", { name: "Skipped records" }).locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("12");
  await expect(rows.nth(0)).toContainText(HOSTILE_REASON);
  await expect(skipped.locator("img")).toHaveCount(0);
  await expect(rows.nth(1)).toContainText("tool result without its call");

  expect(await listedSeqs(page)).toEqual(["0", "1", "2", "3", "4", "5", "6", "7", "8"]);
  const call = page.locator(`[data-span-id="${seeded.spanIds[1]}"]`);
  await expect(call).toContainText("main agent");
  await expect(call.locator('[data-outcome="FAILED"]')).toContainText("failed");
  await expect(call.locator('[data-outcome="FAILED"]')).toContainText("exit 1");
  await expect(page.locator(`[data-span-id="${seeded.spanIds[7]}"]`)).toContainText("subagent explorer-1 (Explore)");
  await page.screenshot({ path: "e2e/artifacts/fidelity-session.png", fullPage: true });
  await expectNoSeriousViolations(page);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
});

test("a session's transcript filters by agent through the URL", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto(`/projects/${seeded.projectSlug}/sessions/${seeded.sessionId}`);
  const filters = page.getByRole("form", { name: "Filter the transcript" });
  await filters.getByLabel("Agent").selectOption({ label: "Subagent explorer-1 (Explore)" });
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/agent=sub%3Aexplorer-1/);
  await expect.poll(() => listedSeqs(page)).toEqual(["5", "6", "7", "8"]);
  await expect(page.getByRole("heading", { name: /subagent explorer-1/ })).toBeVisible();
});

test("a session's transcript filters by outcome, with an agent or without, and the URL shares the list", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto(`/projects/${seeded.projectSlug}/sessions/${seeded.sessionId}`);
  const filters = page.getByRole("form", { name: "Filter the transcript" });
  // The main agent's failed or declined calls: the URL alone gives the same list to whoever opens it.
  await filters.getByLabel("Agent").selectOption({ label: "Main agent" });
  await filters.getByLabel("failed").check();
  await filters.getByLabel("declined").check();
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/agent=main/);
  await expect(page).toHaveURL(/outcome=FAILED/);
  await expect.poll(() => listedSeqs(page)).toEqual(["1", "2"]);
  await page.goto(page.url());
  await expect.poll(() => listedSeqs(page)).toEqual(["1", "2"]);
  await expect(page.getByRole("form", { name: "Filter the transcript" }).getByLabel("failed")).toBeChecked();
  await page.screenshot({ path: "e2e/artifacts/fidelity-session-filtered.png", fullPage: true });

  // Any agent, declined only; then everything again.
  await page.goto(`/projects/${seeded.projectSlug}/sessions/${seeded.sessionId}?outcome=DECLINED#spans`);
  await expect.poll(() => listedSeqs(page)).toEqual(["7", "8"]);
  await page.getByRole("link", { name: "Show every agent and outcome" }).click();
  await expect.poll(() => listedSeqs(page)).toEqual(["0", "1", "2", "3", "4", "5", "6", "7", "8"]);
});

test("the sessions list marks an incomplete session and can list only those", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto(`/projects/${seeded.projectSlug}/sessions?q=${encodeURIComponent(seeded.title)}`);
  const row = page.getByRole("table", { name: "Sessions" }).getByRole("row").filter({ hasText: seeded.title });
  await expect(row.getByTestId("incomplete")).toHaveText("incomplete");
  await page.getByLabel("State").selectOption({ label: "Incomplete (records skipped)" });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/state=incomplete/);
  const listed = page.getByRole("table", { name: "Sessions" }).locator("tbody tr");
  await expect(listed.filter({ hasText: seeded.title })).toHaveCount(1);
  await page.screenshot({ path: "e2e/artifacts/fidelity-sessions-incomplete.png", fullPage: true });
  // Every session listed is incomplete: the demo's complete sessions are not.
  await expect(listed.filter({ hasText: "Configure the app for staging" })).toHaveCount(0);
  expect(await listed.count()).toBe(await listed.getByTestId("incomplete").count());
});

test("an evidence answer tallies attempts, gives each citation its outcome and lists the skipped records", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto(EVIDENCE);
  await expect(page.getByTestId("answer")).toHaveText("YES");
  await expect(page.getByTestId("attempts")).toHaveText("3 attempts: 1 succeeded, 1 failed, 1 declined");

  // The builder is open on a custom question: its outcome checkboxes narrow it to failed calls.
  await page
    .getByRole("group", { name: /Call outcome/ })
    .getByLabel("failed")
    .check();
  await page.getByRole("button", { name: "Ask" }).click();
  await expect(page).toHaveURL(/outcome=FAILED/);
  await expect(page.getByTestId("answer")).toHaveText("YES");
  await expect(page.getByTestId("attempts")).toHaveText("1 attempt: 1 failed");
  const citations = page.getByRole("table", { name: "Citations" }).locator("tbody tr");
  expect(await citations.count()).toBeGreaterThan(0);
  for (const row of await citations.all()) {
    await expect(row.locator('[data-outcome="FAILED"]')).toHaveText("failed exit 1");
  }
  const skipped = page.getByTestId("skipped-records");
  await expect(skipped).toContainText("no evidence question answers NO");
  const skippedRows = skipped.getByRole("table", { name: "Skipped records" }).locator("tbody tr");
  await expect(skippedRows).toHaveCount(2);
  await expect(skippedRows.nth(0).getByRole("link", { name: seeded.title })).toHaveAttribute(
    "href",
    `/projects/${seeded.projectSlug}/sessions/${seeded.sessionId}`,
  );
  await expect(skippedRows.nth(0)).toContainText(HOSTILE_REASON);
  await page.screenshot({ path: "e2e/artifacts/fidelity-evidence.png", fullPage: true });
  await expectNoSeriousViolations(page);
});

test("an evidence export carries each citation's outcome, the tally and the skipped records", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto(`${EVIDENCE}&outcome=FAILED`);
  await expect(page.getByTestId("answer")).toHaveText("YES");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "CSV" }).click()]);
  // The export's facts come first, then a blank line and the table.
  const csv = readFileSync((await download.path())!, "utf8")
    .split("\r\n\r\n")[1]!
    .split("\r\n");
  expect(csv[0]).toContain('"outcome","exit_code","skipped_line","skipped_reason","attempts"');
  expect(csv.some((l) => l.startsWith('"citation"') && l.includes('"TOOL_CALL","FAILED","1"'))).toBe(true);
  expect(csv.filter((l) => l.startsWith('"skipped_record"') && l.includes(seeded.sessionId))).toHaveLength(2);
  const [jsonDownload] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "JSON" }).click()]);
  const json = JSON.parse(readFileSync((await jsonDownload.path())!, "utf8"));
  expect(json.answer.outcomeSummary).toBe("1 attempt: 1 failed");
  expect(json.answer.skippedRecords).toHaveLength(2);
});

test("an answer over an incomplete session is never NO, and an empty scope is said plainly", async ({ page }) => {
  await signIn(page, "viewer");
  // Nothing matches: the skipped records keep the answer from NO.
  await page.goto(`/projects/${seeded.projectSlug}/evidence?session=${seeded.sessionId}&q=custom&kind=URL`);
  await expect(page.getByTestId("answer")).toHaveText("INSUFFICIENT EVIDENCE");
  await expect(page.getByTestId("skipped-records")).toBeVisible();
  await expect(page.getByTestId("no-spans-in-scope")).toHaveCount(0);

  // A date range holding none of its spans: said plainly.
  await page.goto(`${EVIDENCE}&from=2001-01-01&to=2001-01-02`);
  await expect(page.getByTestId("answer")).toHaveText("INSUFFICIENT EVIDENCE");
  await expect(page.getByTestId("no-spans-in-scope")).toContainText("No spans in scope");
});
