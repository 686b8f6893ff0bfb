/**
 * Compactions that skipped the gate, and a refusal that explains itself: an imported transcript's
 * compaction record shows on the sessions list and in the refusal feed under its own filter; a
 * refused reclamation's page shows the summary it refused, the atoms it dropped highlighted in the
 * original, and what would have made it acceptable.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { e2eDatabase } from "./support/e2e-database";
import { PASSWORD, USERS } from "./support/sign-in";

const REFUSED_SUMMARY = "Cleaned the <b>cache</b> and restarted the service.";

/** Signs in as the operator; where the dashboard lands first does not matter here. */
async function signIn(page: Page): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(USERS.operator);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/** A project of its own with the operator as a member: an imported compaction and a refused reclamation. */
async function seed() {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { addMember, createProject } = await import("@/lib/server/admin");
  const { DEFAULT_POLICY } = await import("@/lib/evidence/policy");
  const { importTranscriptFile } = await import("@/lib/server/imports");
  const { appendSpans, upsertSession } = await import("@/lib/server/ingest");
  const { reclaim } = await import("@/lib/server/gate");
  const { db } = await import("@/lib/db/client");
  // Side-effecting originals kept 30 days, short of the 400-day horizon: a pointer alone is not enough.
  const project = await createProject({
    slug: `compactions-${randomBytes(3).toString("hex")}`,
    name: "E2E compactions",
    policy: { ...DEFAULT_POLICY, ttlDays: { NARRATIVE: 30, STRUCTURED: 30, SIDE_EFFECTING: 30 } },
  });
  await addMember({ projectId: project.id, email: USERS.operator, role: "OPERATOR" }, { type: "SYSTEM", label: "e2e" });

  // The transcript as if recorded yesterday: the feed shows the last days, by when the compaction happened.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const transcript = readFileSync(path.resolve("lib/importers/fixtures/claude-code-session.jsonl"), "utf8");
  const file = new TextEncoder().encode(transcript.replaceAll('"timestamp":"2025-09-14T', `"timestamp":"${yesterday}T`));
  const imported = await importTranscriptFile(project.id, file, { requester: "importer:claude-code" });

  const { session } = await upsertSession(project.id, { externalId: "asked", runtime: "test", title: "Asked first" });
  const [removal] = await appendSpans(project.id, session.id, [
    {
      seq: 0,
      kind: "TOOL_CALL",
      toolName: "Bash",
      occurredAt: new Date(),
      body: new TextEncoder().encode('{"command":"rm -rf /var/cache/app"}'),
    },
  ]);
  await reclaim({
    projectId: project.id,
    sessionId: session.id,
    selection: { spanIds: [removal!.id] },
    summary: { text: REFUSED_SUMMARY, pointers: [] },
    dryRun: false,
    requester: "api-key:cust_e2e",
  });
  const refusal = await db().refusalEvent.findFirstOrThrow({ where: { sessionId: session.id } });
  return { slug: project.slug, importedSessionId: imported.sessions[0]!.id, refusalId: refusal.id };
}

test("an imported compaction is counted and listed as compacted without asking; a refusal explains itself", async ({ page }) => {
  const seeded = await seed();
  await signIn(page);
  const base = `/projects/${seeded.slug}`;

  // The sessions list counts it, and its filter finds only that session.
  await page.goto(`${base}/sessions?state=unasked`);
  const sessions = page.getByRole("table", { name: "Sessions" });
  await expect(sessions.getByRole("row")).toHaveCount(2); // the header and the imported session
  const row = sessions.getByRole("row").filter({ hasText: "Serve edge-proxy" });
  await expect(row.getByTestId("unasked-compactions")).toHaveText("1");

  // The feed lists it as its own event under its filter, and not under refusals alone.
  await page.goto(`${base}/refusals?show=compactions`);
  const feed = page.getByRole("table", { name: "Refusal events" });
  await expect(feed.getByTestId("unasked-compaction")).toHaveCount(1);
  await expect(feed.getByTestId("unasked-compaction")).toContainText("without asking the gate");
  await expect(feed.locator("[data-event=refusal]")).toHaveCount(0);
  await page.goto(`${base}/refusals?show=refusals`);
  await expect(page.getByTestId("unasked-compaction")).toHaveCount(0);
  await expect(page.locator("[data-event=refusal]")).toHaveCount(1);

  // Each refusal row links to its page, which shows the refused text (escaped), the dropped atoms and the remedies.
  await page.locator("[data-event=refusal]").getByRole("link", { name: "Why" }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/refusals/${seeded.refusalId}$`));
  await expect(page.getByTestId("refused-summary")).toHaveText(REFUSED_SUMMARY);
  // The dropped atoms (the command, its path, the tool argument holding both) cover exactly the command's bytes.
  await expect(page.getByTestId("dropped-atom").first()).toBeVisible();
  expect((await page.getByTestId("dropped-atom").allTextContents()).join("")).toBe("rm -rf /var/cache/app");
  const remedies = page.getByTestId("remedy");
  await expect(remedies.filter({ hasText: "the original kept to its horizon" })).toHaveCount(1);
  await expect(remedies.filter({ hasText: /^an omission manifest naming: .*command/ })).toHaveCount(1);
});

test("a refusal of another project is not found", async ({ page }) => {
  const seeded = await seed();
  process.env.DATABASE_URL = e2eDatabase().url;
  const { createProject, addMember } = await import("@/lib/server/admin");
  const other = await createProject({ slug: `other-${randomBytes(3).toString("hex")}`, name: "E2E other" });
  await addMember({ projectId: other.id, email: USERS.operator, role: "OPERATOR" }, { type: "SYSTEM", label: "e2e" });
  await signIn(page);
  const response = await page.goto(`/projects/${other.slug}/refusals/${seeded.refusalId}`);
  expect(response?.status()).toBe(404);
});
