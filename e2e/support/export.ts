import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import type { EvidenceExportDocument } from "@/lib/server/questions";
import { e2eDatabase } from "./e2e-database";

/** The JSON export a link downloads, kept in a file of its own (to verify) and read. */
export async function downloadJsonExport(page: Page, link: Locator): Promise<{ file: string; exported: EvidenceExportDocument }> {
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const file = join(mkdtempSync(join(tmpdir(), "custodian-export-")), "export.json");
  copyFileSync((await download.path())!, file);
  return { file, exported: JSON.parse(readFileSync(file, "utf8")) as EvidenceExportDocument };
}

/**
 * `custodian verify-export <file>` against the e2e run's database, as an auditor would run it (the
 * command's own entry, as `npm run custodian` starts it). Run without blocking the test's worker
 * and with no limit of its own: the test's limit stops a hang, and a fixed 90 s failed it on a
 * loaded machine by the clock alone.
 */
export function verifyExport(file: string): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["lib/cli/custodian.mjs", "verify-export", file], {
      env: { ...process.env, DATABASE_URL: e2eDatabase().url, CUSTODIAN_DATABASE_MODE: "postgres" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.on("close", (status) => resolve({ status, out: `${out}${err}` }));
  });
}
