import { randomBytes } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { e2eDatabase } from "./support/e2e-database";
import { downloadJsonExport, verifyExport } from "./support/export";
import { signIn, USERS } from "./support/sign-in";

const DAY_MS = 86_400_000;
/** The cited call: its markup must come out as text. */
const INSIDE = '{"command":"cp build/app.conf /etc/app/conf.yaml && echo \\"<b>deployed</b>\\""}';
const OUTSIDE = '{"command":"cp build/db.conf /etc/app/db.yaml"}';

async function seed() {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { createProject } = await import("@/lib/server/admin");
  const { addDemoMembers } = await import("@/lib/demo/load");
  const { appendSpans, upsertSession } = await import("@/lib/server/ingest");
  const tag = randomBytes(3).toString("hex");
  const project = await createProject({ slug: `walk-reviewer-${tag}`, name: `Walk reviewer ${tag}` });
  await addDemoMembers(project.id);
  const session = async (title: string, daysAgo: number, command: string) => {
    const at = new Date(Date.now() - daysAgo * DAY_MS);
    const { session } = await upsertSession(project.id, { externalId: `${title}-${tag}`, runtime: "claude-code", title });
    const [call, result] = await appendSpans(project.id, session.id, [
      { seq: 0, kind: "TOOL_CALL", toolName: "Bash", occurredAt: at, body: new TextEncoder().encode(command) },
      { seq: 1, kind: "TOOL_RESULT", occurredAt: at, body: new TextEncoder().encode("") },
    ]);
    return { id: session.id, title, spanId: call!.id, resultId: result!.id };
  };
  const inside = await session(`Config deploy ${tag}`, 20, INSIDE);
  const outside = await session(`Old deploy ${tag}`, 60, OUTSIDE);
  return { slug: project.slug, inside, outside };
}

async function goTo(page: Page, section: string) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: section, exact: true }).click();
}

test("reviewer: a month's question answered with a citation to escaped verbatim bytes, exported, and the export verifies", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const seeded = await seed();
  await signIn(page, "viewer");

  // The month is picked on the overview and carried to Evidence.
  await page.goto(`/projects/${seeded.slug}?range=30d`);
  await goTo(page, "Evidence");
  await expect(page).toHaveURL(/\/evidence\?range=30d$/);
  const form = page.getByRole("form", { name: "Ask a question" });
  await expect(form.getByLabel("Within")).toHaveValue("30d");
  await form.getByLabel(/^Question/).selectOption("modified-system-config");
  await form.getByRole("button", { name: "Ask" }).click();
  await expect(page).toHaveURL(/[?&]q=modified-system-config(&|$)/);
  await expect(page).toHaveURL(/[?&]range=30d(&|$)/);

  // YES, citing the write of 20 days ago only: the one of 60 days ago is outside the month.
  const answer = page.getByRole("region", { name: "Answer" });
  await expect(page.getByTestId("answer")).toHaveText("YES");
  const citations = page.getByRole("table", { name: "Citations" });
  await expect(citations.getByRole("link", { name: seeded.inside.title }).first()).toBeVisible();
  await expect(citations.getByRole("link", { name: seeded.outside.title })).toHaveCount(0);
  // The tally counts the one session with spans in the month, not the project's two.
  await expect(answer).toContainText(/0 blocking spans; \d+ spans? checked in 1 session; scope complete/);
  const cited = await citations.locator("tbody tr").count();
  expect(cited).toBeGreaterThan(0);
  await expect(answer).toContainText(cited === 1 ? "1 citation," : `${cited} citations,`);

  // A citation opens its span, the cited bytes marked in the verbatim body, markup shown as text.
  await citations.getByRole("row").filter({ hasText: "/etc/app/conf.yaml" }).first().getByRole("link", { name: /–/ }).click();
  await expect(page).toHaveURL(new RegExp(`/spans/${seeded.inside.spanId}\\?from=\\d+&to=\\d+#cited$`));
  const body = page.getByTestId("span-body");
  await expect(body).toHaveText(INSIDE);
  await expect(body.locator("b")).toHaveCount(0);
  await expect(body.locator("mark.cited")).toHaveText("/etc/app/conf.yaml");
  await expect(page.getByTestId("hash-check")).toHaveText("verified now");
  // The call's empty result beside it holds nothing a question could cite, and says so.
  await page.goto(`/projects/${seeded.slug}/spans/${seeded.inside.resultId}`);
  await expect(page.getByTestId("no-atoms")).toHaveText("No atoms: nothing in this span that a question could cite.");
  await expect(page.getByRole("table", { name: "Atoms" })).toHaveCount(0);
  await page.goBack();

  // From the span, the navigation leads on without taking its byte offsets for days.
  await goTo(page, "Evidence");
  await expect(page).toHaveURL(/\/evidence$/);
  await expect(page.getByRole("form", { name: "Ask a question" })).toBeVisible();
  await page.goBack();
  await page.goBack();
  await expect(page.getByTestId("answer")).toHaveText("YES");

  // The export: the same answer, the month's citations only; it verifies.
  const { file, exported } = await downloadJsonExport(page, answer.getByRole("link", { name: "JSON" }));
  expect(exported).toMatchObject({
    format: "custodian-evidence-export",
    project: { slug: seeded.slug },
    askedBy: { email: USERS.viewer },
    answer: { answer: "YES", citationCount: cited },
  });
  expect(exported.citations.map((c: { sessionId: string }) => c.sessionId)).not.toContain(seeded.outside.id);
  const verified = await verifyExport(file);
  expect(verified.out).toMatch(
    new RegExp(
      `^Verified: export hash ok; signature by this instance; recorded in the audit log; ${cited} of ${cited} citations? verify`,
      "m",
    ),
  );
  expect(verified.status).toBe(0);
});
