import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { IMPORT_FORMATS, importTranscript } from "@/lib/importers";
import { e2eDatabase } from "./support/e2e-database";
import { seedSession } from "./support/seed";
import { signIn } from "./support/sign-in";

const FIXTURES = path.resolve("lib/importers/fixtures");
const FILES = [
  { name: "claude-code-session.jsonl", format: "claude-code" },
  { name: "gemini-cli/handwritten-session.jsonl", format: "gemini-cli" },
] as const;

/** What the importer itself counts of a fixture: the numbers the page must show for it. */
function expected(name: string) {
  const bytes = new Uint8Array(readFileSync(path.join(FIXTURES, name)));
  const parsed = importTranscript(bytes);
  return { bytes, format: parsed.format, records: parsed.records, session: parsed.sessions[0]! };
}

/** Drops files on the upload's drop zone as a person dragging them from their desktop would. */
async function dropFiles(page: Page, files: Array<{ name: string; base64: string }>) {
  const transfer = await page.evaluateHandle((list) => {
    const data = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      data.items.add(new File([bytes], f.name, { type: "application/octet-stream" }));
    }
    return data;
  }, files);
  const zone = page.getByTestId("import-drop-zone");
  await zone.dispatchEvent("dragover", { dataTransfer: transfer });
  await zone.dispatchEvent("drop", { dataTransfer: transfer });
}

test("two transcripts of different formats dropped at once are imported, each with its accounting and a link to its session", async ({
  page,
}) => {
  const seeded = await seedSession("imports-upload", [{ kind: "MESSAGE", body: "hello" }]);
  await signIn(page, "operator");
  await page.goto(`/projects/${seeded.projectSlug}/imports`);
  const form = page.getByRole("form", { name: "Import transcript files" });
  const files = FILES.map((f) => ({ ...expected(f.name), name: f.name, declared: f.format }));
  await dropFiles(
    page,
    files.map((f) => ({ name: path.basename(f.name), base64: Buffer.from(f.bytes).toString("base64") })),
  );

  for (const f of files) {
    expect(f.format).toBe(f.declared);
    const row = form.locator(`li[data-upload="${path.basename(f.name)}"]`);
    await expect(row.getByRole("status")).toContainText(`session(s) (${f.format})`);
    const { read, used, ignored, skipped } = f.records;
    expect(read).toBe(used + ignored + skipped);
    await expect(row.getByTestId("record-accounting")).toHaveText(
      `${read.toLocaleString("en")} records read = ${used.toLocaleString("en")} used + ${ignored.toLocaleString("en")} ignored + ${skipped > 0 ? `${skipped} skipped` : "0 skipped"}`,
    );
    await expect(row.getByRole("link", { name: f.session.externalId })).toHaveAttribute(
      "href",
      new RegExp(`^/projects/${seeded.projectSlug}/sessions/[0-9a-f-]{36}$`),
    );
  }

  // The list shows both imports, done, with the same accounting, without reloading the page.
  const table = page.getByRole("table", { name: "Imports" });
  for (const f of files) {
    const row = table.getByRole("row").filter({ has: page.getByRole("link", { name: f.session.externalId }) });
    await expect(row).toContainText("done");
    await expect(row.getByRole("cell").nth(1)).toHaveText(f.format);
    await expect(row.getByRole("cell").nth(5)).toHaveText(f.records.read.toLocaleString("en"));
  }

  // The link leads to the session the import made.
  const first = files[0]!;
  await form
    .locator(`li[data-upload="${path.basename(first.name)}"]`)
    .getByRole("link", { name: first.session.externalId })
    .click();
  await expect(page).toHaveURL(new RegExp(`/projects/${seeded.projectSlug}/sessions/[0-9a-f-]{36}$`));
  await expect(page.getByText(first.session.externalId, { exact: true })).toBeVisible();
});

test("a file that is no transcript, chosen with the file picker, is refused with the supported formats named, and listed as failed", async ({
  page,
}) => {
  const seeded = await seedSession("imports-refused", [{ kind: "MESSAGE", body: "hello" }]);
  await signIn(page, "operator");
  await page.goto(`/projects/${seeded.projectSlug}/imports`);
  const form = page.getByRole("form", { name: "Import transcript files" });
  await form.getByLabel("Transcript files").setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("Shopping list: milk, eggs, a new keyboard.\n"),
  });
  await form.getByRole("button", { name: "Import" }).click();
  const alert = form.locator('li[data-upload="notes.txt"]').getByRole("alert");
  await expect(alert).toContainText("Not imported: Not a supported transcript");
  await expect(alert).toContainText(`Supported formats: ${IMPORT_FORMATS.join(", ")}`);
  const row = page.getByRole("table", { name: "Imports" }).getByRole("row").nth(1);
  await expect(row).toContainText("failed");
  await expect(row).toContainText("Not a supported transcript");
});

test("local transcripts a runtime's cleanup deletes within 7 days, not fully imported, are a warning on the Imports page", async ({
  page,
}) => {
  const seeded = await seedSession("imports-at-risk", [{ kind: "MESSAGE", body: "hello" }]);
  process.env.DATABASE_URL = e2eDatabase().url;
  const { saveTranscriptCursor } = await import("@/lib/server/capture");
  const day = 86_400_000;
  const cursor = (file: string, deleteInDays: number, bytes: number, error: string | null = null) =>
    saveTranscriptCursor(seeded.projectId, {
      path: `/home/dev/.claude/projects/-home-dev-app/${file}`,
      runtime: "claude-code",
      identity: "1:2",
      size: 4096,
      mtime: new Date(),
      state: {},
      bytes,
      error,
      deleteAt: new Date(Date.now() + deleteInDays * day),
    });
  await cursor("half-read.jsonl", 3.5, 1024);
  await cursor("failed.jsonl", 1.5, 0, "cannot read the transcript: EACCES");
  await cursor("complete.jsonl", 2, 4096);
  await cursor("later.jsonl", 20, 0);

  await signIn(page, "viewer");
  await page.goto(`/projects/${seeded.projectSlug}/imports`);
  const warning = page.getByRole("region", { name: /2 local transcripts at risk/ });
  await expect(warning).toBeVisible();
  const rows = warning.getByRole("table", { name: "Transcripts at risk" }).getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText("failed.jsonl");
  await expect(rows.nth(1)).toContainText("Import failed: cannot read the transcript: EACCES");
  await expect(rows.nth(1).getByRole("cell").nth(3)).toHaveText("2");
  await expect(rows.nth(2)).toContainText("half-read.jsonl");
  await expect(rows.nth(2)).toContainText("3,072 bytes");
  await expect(rows.nth(2).getByRole("cell").nth(3)).toHaveText("4");
  // A viewer sees the warning but no upload.
  await expect(page.getByRole("form", { name: "Import transcript files" })).toHaveCount(0);
});

test("the list follows a running import live, and stops reading once none runs", async ({ page }) => {
  const seeded = await seedSession("imports-live", [{ kind: "MESSAGE", body: "hello" }]);
  process.env.DATABASE_URL = e2eDatabase().url;
  const { randomUUID } = await import("node:crypto");
  const { db } = await import("@/lib/db/client");
  // A background import another server is running: its row is all this page knows of it.
  const job = await db().importJob.create({
    data: {
      id: randomUUID(),
      projectId: seeded.projectId,
      format: "codex",
      byteLength: 3 * 1024 * 1024,
      spansDone: 10,
      spansTotal: 100,
      requester: "api-key:e2e",
    },
  });
  await signIn(page, "viewer");
  await page.goto(`/projects/${seeded.projectSlug}/imports`);
  const row = page.locator(`tr[data-import-id="${job.id}"]`);
  await expect(row).toContainText("running");
  await expect(row).toContainText("10 of 100");
  await expect(page.getByText("Live: an import is running")).toBeVisible();

  await db().importJob.update({ where: { id: job.id }, data: { spansDone: 60 } });
  await expect(row).toContainText("60 of 100");
  await db().importJob.update({
    where: { id: job.id },
    data: {
      status: "DONE",
      spansDone: 100,
      spansTotal: 100,
      outcome: { records: { read: 120, used: 100, ignored: 15, skipped: 5 }, sessions: [] },
    },
  });
  await expect(row).toContainText("done");
  await expect(row.getByRole("cell").nth(5)).toHaveText("120");
  await expect(page.getByText("Live: an import is running")).toHaveCount(0);
  // Nothing runs: the list is not read again.
  const list = `/api/dashboard/projects/${seeded.projectSlug}/imports`;
  await expect(page.waitForRequest((r) => new URL(r.url()).pathname === list, { timeout: 4_000 })).rejects.toThrow();
});
