/**
 * For the fault test of imports (all-or-nothing.db.test.ts): imports a file into a project on
 * DATABASE_URL, printing "progress <spans>" as batches land, so that the test can kill the process
 * with SIGKILL in the middle of the import.
 */
import { readFileSync } from "node:fs";
import { importTranscriptFile } from "./import-file";

const [file, projectId] = process.argv.slice(2);
await importTranscriptFile(projectId!, new Uint8Array(readFileSync(file!)), {
  requester: "fault test",
  onProgress: ({ spansDone }) => process.stdout.write(`progress ${spansDone}\n`),
});
process.stdout.write("done\n");
process.exit(0);
