/**
 * `custodian watch [--once]`: imports the runtimes' local transcripts (./watch-discover.ts) into a
 * project, then follows them. Each file's cursor (its identity, size, modification time and the
 * reader's byte offset) lives in the database, so a restart goes on where the last run stopped and
 * a second pass over unchanged files sends nothing.
 *
 * Following polls: every `--interval` seconds (default 2) the folders are listed again and each file
 * stat'ed; only a file whose identity, size or time changed is read, from its cursor on. Polling
 * rather than fs.watch: recursive watches are not available on every platform Node runs on, they
 * miss files on network and container mounts, and a stat per file is cheap next to any import.
 */
import { homedir } from "node:os";
import { parseArgs } from "node:util";
import { AppError } from "@/lib/core/errors";
import { findProjectBySlug } from "@/lib/server/admin";
import { AT_RISK_WARN_DAYS, transcriptsAtRisk } from "@/lib/server/capture";
import { progressBar } from "./progress";
import { claudeCleanupDays } from "./watch-cleanup";
import { discoverTranscripts, transcriptRoots } from "./watch-discover";
import { type FileResult, runPass } from "./watch-pass";

export const WATCH_USAGE = `  watch [--once] [--project <slug>] [--home <dir>] [--interval <seconds>]
                      Import Claude Code, Codex and Gemini CLI transcripts found under the home
                      folder (default: yours, or CUSTODIAN_WATCH_HOME), then follow them; --once
                      does one pass and exits. Warns about transcripts the runtime's own cleanup
                      deletes within 7 days that are not fully imported.
  watch install [--dry-run] [--project <slug>] [--home <dir>] [--platform linux|darwin]
                      Install the watcher as a user service (systemd on Linux, launchd on macOS).
`;

const WARN_DAYS = AT_RISK_WARN_DAYS;

export interface WatchOptions {
  project: string;
  home: string;
  once: boolean;
  intervalMs: number;
  env?: NodeJS.ProcessEnv;
  /** Stops following (tests, a signal). */
  signal?: AbortSignal;
}

export function watchOptions(args: string[], env: NodeJS.ProcessEnv = process.env): WatchOptions {
  const { values } = parseArgs({
    args,
    options: {
      once: { type: "boolean" },
      project: { type: "string" },
      home: { type: "string" },
      interval: { type: "string" },
    },
  });
  const interval = values.interval === undefined ? 2 : Number(values.interval);
  if (!Number.isFinite(interval) || interval <= 0)
    throw new AppError("VALIDATION_FAILED", "--interval must be a positive number of seconds", {
      details: { field: "interval" },
    });
  return {
    project: values.project ?? "demo",
    home: values.home ?? (env.CUSTODIAN_WATCH_HOME || homedir()),
    once: values.once ?? false,
    intervalMs: interval * 1000,
    env,
  };
}

export interface PassReport {
  files: number;
  changed: number;
  imported: number;
  failed: FileResult[];
}

/** One pass: discover, import what changed, print the totals, the failures and the warnings. */
export async function watchOnce(projectId: string, options: WatchOptions, quiet = false): Promise<PassReport> {
  const roots = transcriptRoots(options.home, options.env);
  const files = discoverTranscripts(roots);
  let bar: ReturnType<typeof progressBar> | undefined;
  const results = await runPass(files, {
    projectId,
    claudeCleanupDays: claudeCleanupDays(roots.claudeCode),
    onFile: (done, total, result) => {
      bar ??= progressBar(`Importing ${total} changed transcript${total === 1 ? "" : "s"}`, "files");
      bar.update(done, total);
      if (quiet && result.imported > 0) console.log(`${result.path}: ${result.imported} new spans`);
    },
  });
  bar?.done();
  const changed = results.filter((r) => r.imported > 0 || r.error !== undefined);
  const report: PassReport = {
    files: results.length,
    changed: changed.length,
    imported: results.reduce((n, r) => n + r.imported, 0),
    failed: results.filter((r) => r.error !== undefined),
  };
  if (!quiet || report.failed.length > 0) {
    console.log(
      `${report.files} transcripts: ${report.imported} new spans from ${report.changed - report.failed.length} files, ${report.failed.length} failed.`,
    );
    for (const f of report.failed) console.log(`  FAILED ${f.path}: ${f.error}`);
  }
  for (const risk of await transcriptsAtRisk(projectId, new Date(), WARN_DAYS)) {
    const days = Math.max(0, Math.ceil((risk.deleteAt.getTime() - Date.now()) / 86_400_000));
    console.log(
      `WARNING: ${risk.runtime}'s cleanup deletes ${risk.path} on ${risk.deleteAt.toISOString().slice(0, 10)} ` +
        `(in ${days} day${days === 1 ? "" : "s"}) and it is not fully imported` +
        (risk.error ? ` (${risk.error})` : ` (${risk.missingBytes} bytes left)`),
    );
  }
  return report;
}

/** Waits, or less when the signal stops the watcher. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    // The listener goes with its wait, or a long-running watcher would pile them up.
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal?.addEventListener("abort", stop, { once: true });
  });
}

export async function runWatch(options: WatchOptions): Promise<void> {
  const project = await findProjectBySlug(options.project);
  await watchOnce(project.id, options);
  if (options.once) return;
  console.log(`Following the transcripts under ${options.home} (every ${options.intervalMs / 1000} s).`);
  while (!options.signal?.aborted) {
    await sleep(options.intervalMs, options.signal);
    if (!options.signal?.aborted) await watchOnce(project.id, options, true);
  }
}
