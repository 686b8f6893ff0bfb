import { expect, test } from "@playwright/test";
import pg from "pg";
import { e2eDatabase } from "./support/e2e-database";
import { downloadJsonExport, verifyExport } from "./support/export";
import { seedSession } from "./support/seed";
import { signIn, USERS } from "./support/sign-in";

/** As the database's owner, behind Custodian's back. */
async function asOwner(sql: string, values: unknown[]) {
  const client = new pg.Client({ connectionString: e2eDatabase().url });
  await client.connect();
  try {
    await client.query(sql, values);
  } finally {
    await client.end();
  }
}

test("an exported answer verifies with custodian verify-export, then names the citation whose original changed", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const seeded = await seedSession("export-verify", [
    { kind: "TOOL_CALL", toolName: "Bash", body: '{"command":"cp build/app.conf /etc/app/conf.yaml"}' },
    { kind: "TOOL_RESULT", body: "" },
    { kind: "TOOL_CALL", toolName: "Bash", body: '{"command":"cp build/db.conf /etc/app/db.yaml"}' },
  ]);
  // The viewer reads the project (seeded projects may already count the demo's people as members).
  const { addMember } = await import("@/lib/server/admin");
  await addMember({ projectId: seeded.projectId, email: USERS.viewer, role: "VIEWER" }, { type: "SYSTEM", label: "e2e" }).catch(
    (error: { code?: string }) => {
      if (error.code !== "CONFLICT") throw error;
    },
  );

  await signIn(page, "viewer");
  const question = "q=modified-system-config";
  await page.goto(`/projects/${seeded.projectSlug}/evidence?${question}`);
  await expect(page.getByTestId("answer")).toHaveText("YES");
  const { file, exported } = await downloadJsonExport(page, page.getByRole("link", { name: "JSON" }));
  expect(exported).toMatchObject({
    format: "custodian-evidence-export",
    project: { slug: seeded.projectSlug },
    askedBy: { email: USERS.viewer },
    answer: { answer: "YES", citationCount: 2 },
  });
  expect(exported.citations).toHaveLength(2);

  const clean = await verifyExport(file);
  expect(clean.out).toMatch(
    /^Verified: export hash ok; signature by this instance; recorded in the audit log; 2 of 2 citations verify/m,
  );
  expect(clean.status).toBe(0);

  // The owner changes the second citation's original: that citation, and only it, fails.
  const [first, changed] = exported.citations;
  if (!first || !changed) throw new Error("the export has two citations");
  await asOwner("update span_original set bytes = bytes || '\\x20'::bytea where session_id = $1 and span_id = $2", [
    changed.sessionId,
    changed.spanId,
  ]);
  const broken = await verifyExport(file);
  expect(broken.out).toContain(`citation 2: span ${changed.spanId} (session ${changed.sessionId}): original changed`);
  expect(broken.out).not.toContain(`span ${first.spanId}`);
  expect(broken.out).toMatch(
    /NOT verified: export hash ok; signature by this instance; recorded in the audit log; 1 of 2 citations verify/,
  );
  expect(broken.status).toBe(1);

  // The printable page: the same facts, and the export's hash, with nothing of the navigation in print.
  await page.goto(`/projects/${seeded.projectSlug}/evidence/export/print?${question}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Did we modify system config?");
  await expect(page.getByTestId("export-sha256")).toHaveText(/^[0-9a-f]{64}$/);
  const printed = page.getByRole("article", { name: "Evidence export" });
  await expect(printed.getByText(USERS.viewer)).toBeVisible();
  await expect(printed.getByText("/etc/app/conf.yaml", { exact: true })).toBeVisible();
  await expect(printed.getByText(exported.custodianVersion, { exact: true })).toBeVisible();
  const back = page.getByRole("link", { name: "Back to the answer" });
  await expect(back).toBeVisible();
  await page.emulateMedia({ media: "print" });
  await expect(page.locator(".side-nav")).toBeHidden();
  await expect(back).toBeHidden();
  await expect(printed.getByTestId("export-sha256")).toBeVisible();
  await page.screenshot({ path: "e2e/artifacts/export-print.png", fullPage: true });
});
