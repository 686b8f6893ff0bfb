import { createReadStream, statSync } from "node:fs";
import { Readable } from "node:stream";
import { AppError } from "@/lib/core/errors";
import { IMPORT_FORMATS, type ImportFormat } from "@/lib/importers/shared/types";
import { fileSource, importTranscriptFile, type ImportOutcome } from "@/lib/server/imports";
import { findProjectBySlug } from "@/lib/server/admin";
import { progressBar } from "./progress";

export interface ImportOptions {
  file: string;
  format?: string;
  project?: string;
  server?: string;
  key?: string;
  ttlFrom?: string;
}

function checkTtlFrom(ttlFrom: string | undefined): "received" | "occurred" | undefined {
  if (ttlFrom === undefined || ttlFrom === "received" || ttlFrom === "occurred") return ttlFrom;
  throw new AppError("VALIDATION_FAILED", "--ttl-from must be received or occurred");
}

function checkFormat(format: string | undefined): ImportFormat | undefined {
  if (format === undefined) return undefined;
  if (!(IMPORT_FORMATS as readonly string[]).includes(format)) {
    throw new AppError("VALIDATION_FAILED", `--format must be one of ${IMPORT_FORMATS.join(", ")}`);
  }
  return format as ImportFormat;
}

/** Imports into the local database (embedded or DATABASE_URL) with a progress bar. */
export async function importLocally(options: ImportOptions): Promise<ImportOutcome> {
  const project = await findProjectBySlug(options.project ?? "demo");
  // Read from the file a chunk at a time as the import goes, as the server reads a large upload.
  const source = fileSource(options.file, statSync(options.file).size);
  const bar = progressBar(`Importing ${options.file}`);
  const outcome = await importTranscriptFile(project.id, source, {
    format: checkFormat(options.format),
    requester: "cli:import",
    ttlFrom: checkTtlFrom(options.ttlFrom),
    onProgress: ({ spansDone, spansTotal }) => bar.update(spansDone, spansTotal),
  });
  bar.done();
  return outcome;
}

/** Sends the file to a running server with an API key; follows a background job until it ends. */
export async function importViaServer(options: ImportOptions & { server: string; key: string }): Promise<ImportOutcome> {
  const format = checkFormat(options.format);
  const url = new URL("/api/v1/imports", options.server);
  if (format) url.searchParams.set("format", format);
  const ttlFrom = checkTtlFrom(options.ttlFrom);
  if (ttlFrom) url.searchParams.set("ttlFrom", ttlFrom);
  const headers = { authorization: `Bearer ${options.key}` };
  // Streamed from the file, its length declared: the server refuses one over its limit before reading.
  const size = statSync(options.file).size;
  const response = await fetch(url, {
    method: "POST",
    headers: { ...headers, "content-length": String(size) },
    body: Readable.toWeb(createReadStream(options.file)) as ReadableStream<Uint8Array>,
    duplex: "half",
  } as RequestInit);
  const body = (await response.json()) as {
    job?: { id: string };
    error?: { code: string; message: string };
  } & Partial<ImportOutcome>;
  if (!response.ok) {
    const code = body.error?.code;
    const known = code === "UNSUPPORTED_FORMAT" || code === "NO_SESSIONS_FOUND" ? code : "INVALID_REQUEST";
    throw new AppError(known, `The server refused the import: ${code}: ${body.error?.message}`);
  }
  if (!body.job) return body as ImportOutcome;

  const bar = progressBar(`Importing ${options.file}`);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const poll = await fetch(new URL(`/api/v1/imports/${body.job.id}`, options.server), { headers });
    const job = (await poll.json()) as {
      status: string;
      spansDone: number;
      spansTotal: number;
      outcome: ImportOutcome | null;
      error: string | null;
    };
    bar.update(job.spansDone, job.spansTotal);
    if (job.status === "DONE") {
      bar.done();
      return job.outcome!;
    }
    if (job.status === "FAILED") {
      bar.done();
      throw new AppError("INTERNAL", `The import failed on the server: ${job.error}`);
    }
  }
}

export function printOutcome(outcome: ImportOutcome): void {
  const r = outcome.records;
  console.log(`Imported ${outcome.format}: ${outcome.sessions.length} sessions, ${outcome.spans} spans.`);
  console.log(`  records: ${r.read} read = ${r.used} used + ${r.ignored} ignored + ${r.skipped} skipped`);
  const ignored = Object.entries(r.ignoredByType).sort((a, b) => b[1] - a[1]);
  if (ignored.length > 0) console.log(`  ignored by type: ${ignored.map(([t, n]) => `${t} ${n}`).join(", ")}`);
  console.log(
    `  classes: ${outcome.classes.NARRATIVE} narrative, ${outcome.classes.STRUCTURED} structured, ${outcome.classes.SIDE_EFFECTING} side-effecting`,
  );
  console.log(`  compactions the gate would have refused: ${outcome.wouldRefuse} spans`);
  for (const s of outcome.sessions) {
    const incomplete = s.skippedRecords > 0 ? `; ${s.skippedRecords} records skipped: incomplete, never answers NO` : "";
    console.log(`  session ${s.externalId}: ${s.spans} spans${s.created ? "" : " (already known)"}${incomplete}`);
  }
  console.log(`  TTLs count from ${outcome.retention.ttlFrom === "received" ? "receipt" : "when each span occurred"}`);
  if (outcome.retention.warning) console.log(`  WARNING: ${outcome.retention.warning}`);
  if (outcome.issues.length > 0) {
    console.log(`  ${outcome.issues.length} issues (skipped records and warnings):`);
    for (const issue of outcome.issues.slice(0, 20)) console.log(`    line ${issue.line}: ${issue.message}`);
    if (outcome.issues.length > 20) console.log(`    ... and ${outcome.issues.length - 20} more`);
  }
}
