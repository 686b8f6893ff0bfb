/**
 * The refusals list reads one gate request per row: a compaction that asked to replace three
 * side-effecting spans and was refused for all three is one row, its reason said once, opening to
 * its three spans; a second request is a row of its own. Times stay on one line on a phone.
 */
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { e2eDatabase } from "./support/e2e-database";
import { expectAccessible } from "./support/pages";
import { signIn } from "./support/sign-in";

async function seed() {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { createProject } = await import("@/lib/server/admin");
  const { addDemoMembers } = await import("@/lib/demo/load");
  const { DEFAULT_POLICY } = await import("@/lib/evidence/policy");
  const { appendSpans, upsertSession } = await import("@/lib/server/ingest");
  const { reclaim } = await import("@/lib/server/gate");
  const { db } = await import("@/lib/db/client");
  // Side-effecting originals kept short of the horizon: a summary without pointers loses them.
  const project = await createProject({
    slug: `refusal-groups-${randomBytes(3).toString("hex")}`,
    name: "E2E refusal groups",
    policy: { ...DEFAULT_POLICY, ttlDays: { NARRATIVE: 30, STRUCTURED: 30, SIDE_EFFECTING: 30 } },
  });
  await addDemoMembers(project.id);
  const { session } = await upsertSession(project.id, {
    externalId: "grouped",
    runtime: "test",
    title: "Rotate the deploy keys",
  });
  const commands = ["rm -rf /var/cache/app", "chmod 600 /etc/app/key.pem", "systemctl restart app", "touch /tmp/marker"];
  const spans = await appendSpans(
    project.id,
    session.id,
    commands.map((command, seq) => ({
      seq,
      kind: "TOOL_CALL" as const,
      toolName: "Bash",
      occurredAt: new Date(),
      body: new TextEncoder().encode(JSON.stringify({ command })),
    })),
  );
  const ask = (ids: string[]) =>
    reclaim({
      projectId: project.id,
      sessionId: session.id,
      selection: { spanIds: ids },
      summary: { text: "Did some maintenance.", pointers: [] },
      dryRun: false,
      requester: "api-key:cust_e2e",
    });
  await ask(spans.slice(0, 3).map((s) => s.id));
  await ask([spans[3]!.id]);
  const refusals = await db().refusalEvent.findMany({ where: { sessionId: session.id }, select: { spanId: true, reason: true } });
  const firstThree = new Set(spans.slice(0, 3).map((s) => s.id));
  return {
    slug: project.slug,
    refusals: refusals.length,
    reasonsOfFirst: new Set(refusals.filter((r) => firstThree.has(r.spanId)).map((r) => r.reason)),
  };
}

test("a gate request's refusals are one row with its reason once, opening to its spans", async ({ page }) => {
  const seeded = await seed();
  expect(seeded.refusals).toBe(4);
  await signIn(page, "viewer");
  await page.goto(`/projects/${seeded.slug}/refusals`);
  const feed = page.getByRole("table", { name: "Refusal events" });
  const rows = feed.locator("[data-event=refusal]");
  await expect(rows).toHaveCount(2);
  // Four refusals in two requests: the totals count both.
  await expect(page.getByTestId("list-total")).toHaveText("4 refusals in 2 compactions");

  const grouped = feed.locator('[data-event=refusal][data-spans="3"]');
  await expect(grouped).toHaveCount(1);
  const reasonCell = grouped.locator("td").nth(4);
  await expect(reasonCell.locator("div")).toHaveCount(seeded.reasonsOfFirst.size);
  for (const reason of seeded.reasonsOfFirst) await expect(reasonCell).toContainText(reason);

  const spans = grouped.getByRole("list", { name: /Spans refused in this request/ });
  await expect(spans).toBeHidden();
  await grouped.getByText("3 spans").click();
  await expect(spans.getByRole("listitem")).toHaveCount(3);
  await expect(spans.getByRole("link", { name: /^[0-2]$/ })).toHaveCount(3);
  await expectAccessible(page, "refusals with a request opened", 1280);
  await spans.getByRole("link", { name: "Why span 1 was refused" }).click();
  await expect(page).toHaveURL(/\/refusals\/[0-9a-f-]{36}$/);

  // On a phone, each time stays on one line.
  await page.goBack();
  await page.setViewportSize({ width: 390, height: 900 });
  for (const when of await feed.locator("td.when time").all())
    expect(await when.evaluate((e) => e.getClientRects().length)).toBe(1);
  await expectAccessible(page, "refusals", 390);
});
