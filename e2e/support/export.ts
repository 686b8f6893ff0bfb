import { spawnSync } from "node:child_process";
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

/** `custodian verify-export <file>` against the e2e run's database, as an auditor would run it. */
export function verifyExport(file: string) {
  const run = spawnSync("npx", ["tsx", "lib/cli/main.ts", "verify-export", file], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: e2eDatabase().url, CUSTODIAN_DATABASE_MODE: "postgres" },
    timeout: 90_000,
  });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}
