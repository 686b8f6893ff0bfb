/**
 * `custodian verify-export <file>`: checks an evidence export (the JSON download) against the
 * configured instance: the document's own hash, its signature by the instance's key, its audit row,
 * then every citation against its stored original.
 * Exit status 0 when everything verifies, 1 when anything does not, 2 when the file cannot be read
 * or is not an export.
 */
import { readFile } from "node:fs/promises";
import { AppError } from "@/lib/core/errors";
import { prepareDatabase } from "@/lib/db/bootstrap";
import { disconnectDb } from "@/lib/db/client";
import {
  describeExportVerification,
  type EvidenceExportDocument,
  parseExportDocument,
  verifyExport,
} from "@/lib/server/questions";

export const VERIFY_EXPORT_USAGE = `  verify-export <file>
                      Check an evidence export (JSON) on this instance: its sha256, its signature by
                      this instance's key, its audit row, then each citation against the stored
                      originals; names what does not verify (exit status 1; 2 when the file is not
                      an export).
`;

/** Exit status for a file that cannot be read or is not an export. */
const UNREADABLE = 2;

export async function runVerifyExport(file: string | undefined, rest: string[]): Promise<void> {
  if (!file || rest.length > 0) {
    console.error("custodian: usage: verify-export <file>");
    process.exitCode = UNREADABLE;
    return;
  }
  let document: EvidenceExportDocument;
  try {
    document = parseExportDocument(await readFile(file, "utf8"));
  } catch (error) {
    const reason =
      error instanceof AppError
        ? `${error.message}${error.fields ? ` (${error.fields.map((f) => `${f.path || "document"}: ${f.message}`).join("; ")})` : ""}`
        : (error as NodeJS.ErrnoException).code === "ENOENT"
          ? "no such file"
          : (error as Error).message;
    console.error(`custodian: cannot verify ${file}: ${reason}`);
    process.exitCode = UNREADABLE;
    return;
  }
  const database = await prepareDatabase();
  try {
    const report = await verifyExport(document);
    for (const line of describeExportVerification(report)) console.log(line);
    process.exitCode = report.ok ? 0 : 1;
  } finally {
    await disconnectDb();
    await database.stop();
  }
}
