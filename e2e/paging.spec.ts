import { randomBytes, randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { e2eDatabase } from "./support/e2e-database";
import { everyWidthAndScheme } from "./support/pages";
import { signInAs } from "./support/sign-in";

const SESSIONS = 1_040;
const REQUESTS = 60;

/**
 * A project of its own with a member to sign in as and 1,040 sessions in one statement (every
 * fourth of runtime "codex", an hour apart), plus one session with a span, three refusals of no
 * known gate request, sixty gate requests of two refusals each, two compactions done without
 * asking, and three import jobs (two done, one failed).
 */
async function seedProject() {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { addMember, createProject, createUser } = await import("@/lib/server/admin");
  const { appendSpans, upsertSession } = await import("@/lib/server/ingest");
  const { db } = await import("@/lib/db/client");
  const { refusalRowsOf } = await import("@/lib/server/dashboard/refusals.testkit");
  const suffix = randomBytes(3).toString("hex");
  const project = await createProject({ slug: `paging-${suffix}`, name: "E2E paging" });
  const member = { email: `pager-${suffix}@e2e.local`, password: `e2e-password-${randomBytes(6).toString("hex")}` };
  const actor = { type: "SYSTEM" as const, label: "e2e" };
  await createUser({ email: member.email, role: "VIEWER", password: member.password }, actor);
  await addMember({ projectId: project.id, email: member.email, role: "ADMIN" }, actor);

  const start = Date.now() - (SESSIONS + 10) * 3_600_000;
  await db().session.createMany({
    data: Array.from({ length: SESSIONS }, (_, i) => ({
      id: randomUUID(),
      projectId: project.id,
      externalId: `paged-${String(i).padStart(4, "0")}`,
      runtime: i % 4 === 0 ? "codex" : "claude-code",
      title: `Paged session ${String(i).padStart(4, "0")}`,
      lastActivityAt: new Date(start + i * 3_600_000),
    })),
  });

  const { session } = await upsertSession(project.id, { externalId: "refused", runtime: "claude-code", title: "Refused work" });
  const [span] = await appendSpans(project.id, session.id, [
    { seq: 0, kind: "TOOL_CALL", toolName: "Bash", occurredAt: new Date(), body: new TextEncoder().encode('{"command":"ls"}') },
  ]);
  await db().refusalEvent.createMany({
    data: refusalRowsOf(
      { projectId: project.id, sessionId: session.id, spanId: span!.id },
      Array.from({ length: 3 }, (_, i) => ({
        occurredAt: new Date(Date.now() - (i + 1) * 60_000),
        reason: `a summary would have lost the call (${i})`,
        requester: "runtime:e2e",
        cells: [["SIDE_EFFECTING", "EXPIRING"]],
      })),
    ),
  });
  // Sixty compactions the gate refused two spans of each, a minute apart from two hours ago: more
  // rows than a page of the refusals list holds.
  await db().refusalEvent.createMany({
    data: refusalRowsOf(
      { projectId: project.id, sessionId: session.id, spanId: span!.id },
      Array.from({ length: REQUESTS }, (_, i) => ({
        occurredAt: new Date(Date.now() - 2 * 3_600_000 - i * 60_000),
        reason: `compaction ${i} would have lost the call`,
        requester: "runtime:paged",
        cells: [
          ["SIDE_EFFECTING", "EXPIRING"],
          ["STRUCTURED", "EXPIRING"],
        ],
      })),
    ),
  });
  await db().compaction.createMany({
    data: Array.from({ length: 2 }, (_, i) => ({
      sessionId: session.id,
      id: randomUUID(),
      projectId: project.id,
      asked: false,
      replacedCount: 4,
      refusedCount: 1,
      requester: "importer:codex",
      occurredAt: new Date(Date.now() - (i + 10) * 60_000),
    })),
  });
  await db().importJob.createMany({
    data: Array.from({ length: 3 }, (_, i) => ({
      id: randomUUID(),
      projectId: project.id,
      format: "claude-code",
      status: i === 2 ? ("FAILED" as const) : ("DONE" as const),
      byteLength: 2048 * (i + 1),
      spansDone: 10 * i,
      spansTotal: 10 * i,
      outcome:
        i === 2 ? undefined : { format: "claude-code", spans: 10 * i, records: { read: 12, used: 10, ignored: 1, skipped: 1 } },
      error: i === 2 ? "not a transcript" : null,
      requester: member.email,
      createdAt: new Date(Date.now() - i * 60_000),
    })),
  });
  return { slug: project.slug, member, sessions: SESSIONS + 1, projectId: project.id, session: session.id, span: span!.id };
}

test("the sessions list pages through more than 1,000 sessions with its total, and a shared link reopens the same view", async ({
  page,
}) => {
  const seeded = await seedProject();
  const base = `/projects/${seeded.slug}`;
  await signInAs(page, seeded.member);

  await page.goto(`${base}/sessions`);
  const pages = Math.ceil(seeded.sessions / 25);
  await expect(page.getByTestId("list-total")).toHaveText(
    `Page 1 of ${pages} · ${seeded.sessions.toLocaleString("en")} sessions`,
  );
  // One step with the pager, then to the last page.
  await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/[?&]page=2\b/);
  await expect(page.getByTestId("list-total")).toHaveText(new RegExp(`^Page 2 of ${pages} · `));
  await page.getByRole("link", { name: "Last page" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]page=${pages}\\b`));
  await expect(page.getByTestId("list-total")).toHaveText(
    `Page ${pages} of ${pages} · ${seeded.sessions.toLocaleString("en")} sessions`,
  );
  const sessions = page.getByRole("table", { name: "Sessions" });
  // Newest first: the last page holds the oldest sessions, the very oldest last.
  await expect(sessions.getByRole("row").last()).toContainText("Paged session 0000");
  await expect(sessions.getByRole("row")).toHaveCount(1 + (seeded.sessions - (pages - 1) * 25));

  // Filter and sort through the form, go to the filtered list's last page, then open its link afresh.
  await page.goto(`${base}/sessions`);
  const form = page.getByRole("form", { name: "Filter sessions" });
  await form.getByLabel("Runtime").selectOption("codex");
  await form.getByLabel("Sort by").selectOption("refusals");
  await form.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/runtime=codex/);
  const codex = SESSIONS / 4;
  const codexPages = Math.ceil(codex / 25);
  await expect(page.getByTestId("list-total")).toHaveText(`Page 1 of ${codexPages} · ${codex} sessions`);
  await page.getByRole("link", { name: "Last page" }).click();
  await expect(page).toHaveURL(new RegExp(`page=${codexPages}`));
  const shared = page.url();
  expect(shared).toMatch(/sort=refusals/);
  const rowsHere = await sessions.getByRole("row").allTextContents();
  expect(rowsHere.length).toBe(1 + (codex - (codexPages - 1) * 25));

  const fresh = await page.context().newPage();
  await fresh.goto(shared);
  await expect(fresh.getByTestId("list-total")).toHaveText(`Page ${codexPages} of ${codexPages} · ${codex} sessions`);
  expect(await fresh.getByRole("table", { name: "Sessions" }).getByRole("row").allTextContents()).toEqual(rowsHere);
  const freshForm = fresh.getByRole("form", { name: "Filter sessions" });
  await expect(freshForm.getByLabel("Runtime")).toHaveValue("codex");
  await expect(freshForm.getByLabel("Sort by")).toHaveValue("refusals");
  await fresh.close();
});

test("the refusals and imports pages show their totals, and a bad filter names its field", async ({ page }) => {
  const seeded = await seedProject();
  const base = `/projects/${seeded.slug}`;
  await signInAs(page, seeded.member);

  await page.goto(`${base}/refusals?requester=runtime%3Ae2e`);
  // Three refusals of no known request, each a row of its own; the compactions were done by another requester.
  await expect(page.getByTestId("list-total")).toHaveText("3 refusals in 3 compactions");
  await expect(page.locator("[data-event=refusal]")).toHaveCount(3);
  await expect(page.getByTestId("unasked-compaction")).toHaveCount(0);
  await page.goto(`${base}/refusals?show=compactions`);
  await expect(page.getByTestId("list-total")).toHaveText("2 compactions without asking");
  await expect(page.getByTestId("unasked-compaction")).toHaveCount(2);
  await page.goto(`${base}/refusals?show=refusals&requester=runtime%3Ae2e&sort=oldest`);
  await expect(page.getByTestId("list-total")).toHaveText("3 refusals in 3 compactions");
  await expect(page.getByRole("form", { name: "Filter refusals" }).getByLabel("Requested by")).toHaveValue("runtime:e2e");
  await page.goto(`${base}/refusals?cellClass=LOUD`);
  await expect(page.getByTestId("list-query-error")).toContainText("cellClass");
  await page.goto(`${base}/refusals?after=not-a-cursor`);
  await expect(page.getByTestId("list-query-error")).toContainText("after");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Imports" }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/imports$`));
  await expect(page.getByTestId("list-total")).toHaveText("Page 1 of 1 · 3 imports");
  const imports = page.getByRole("table", { name: "Imports" });
  await expect(imports.getByRole("row")).toHaveCount(4);
  await page.getByRole("form", { name: "Filter imports" }).getByLabel("Status").selectOption("FAILED");
  await page.getByRole("form", { name: "Filter imports" }).getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=FAILED/);
  await expect(page.getByTestId("list-total")).toHaveText("Page 1 of 1 · 1 import");
  await expect(imports).toContainText("not a transcript");
  await page.goto(`${base}/imports?status=LOST`);
  await expect(page.getByTestId("list-query-error")).toContainText("status");
});

test("the refusals list pages by cursor, one compaction a row, never split, and keeps its pages while refusals arrive", async ({
  page,
}) => {
  const seeded = await seedProject();
  const base = `/projects/${seeded.slug}`;
  await signInAs(page, seeded.member);

  // 63 compactions with 123 refusals and 2 without asking: 65 rows, 50 a page; the range travels.
  await page.goto(`${base}/refusals?range=30d`);
  await expect(page.getByTestId("list-total")).toHaveText("123 refusals in 63 compactions · 2 compactions without asking");
  await expect(page.getByTestId("list-window")).toHaveText("Rows 1–50 of 65, newest first");
  const rows = page.getByRole("table", { name: "Refusal events" }).locator("tbody > tr");
  await expect(rows).toHaveCount(50);
  const requests = (p: typeof page) =>
    p
      .locator("[data-event=refusal]")
      .evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute("data-request")}:${tr.getAttribute("data-spans")}`));
  const first = await requests(page);
  const pager = page.getByRole("navigation", { name: "Refusal pages" });
  await expect(pager.getByRole("link", { name: "← Newer" })).toHaveCount(0);
  await pager.getByRole("link", { name: "Older →" }).click();
  await expect(page).toHaveURL(/[?&]after=[\w-]+/);
  await expect(page).toHaveURL(/[?&]range=30d(&|$)/);
  await expect(page.getByTestId("list-window")).toHaveText("Rows 51–65 of 65, newest first");
  await expect(rows).toHaveCount(15);
  const second = await requests(page);
  // Each request on one page only, whole: the sixty of two refusals show 2 on whichever page holds them.
  const keys = (list: string[]) => list.map((r) => r.split(":")[0]);
  expect(keys(first).filter((k) => keys(second).includes(k))).toEqual([]);
  expect([...first, ...second].filter((r) => r.endsWith(":2"))).toHaveLength(REQUESTS);
  expect([...first, ...second]).toHaveLength(63);

  // A compaction refused while reading: the first page grows, this page stays as it was.
  const shared = page.url();
  const { db } = await import("@/lib/db/client");
  const requestId = randomUUID();
  const now = new Date();
  await db().refusalEvent.createMany({
    data: [0, 1, 2].map(() => ({
      sessionId: seeded.session,
      id: randomUUID(),
      projectId: seeded.projectId,
      spanId: seeded.span,
      decisionId: randomUUID(),
      requestId,
      cellClass: "SIDE_EFFECTING" as const,
      cellProvenance: "EXPIRING" as const,
      reason: "refused while someone read the list",
      requester: "runtime:paged",
      atomsAtRisk: [],
      occurredAt: now,
    })),
  });
  await page.goto(shared);
  await expect(page.getByTestId("list-total")).toHaveText("126 refusals in 64 compactions · 2 compactions without asking");
  await expect(page.getByTestId("list-window")).toHaveText("Rows 52–66 of 66, newest first");
  expect(await requests(page)).toEqual(second);
  await everyWidthAndScheme(page, "refusals past the first page");
  await page.getByRole("navigation", { name: "Refusal pages" }).getByRole("link", { name: "Newest" }).click();
  await expect(page.locator(`[data-request="${requestId}"]`)).toHaveAttribute("data-spans", "3");
  await expect(page).toHaveURL(/[?&]range=30d$/);
});
