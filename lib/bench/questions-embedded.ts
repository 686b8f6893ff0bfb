/**
 * The questions benchmark on the embedded database (PGlite served on a loopback port, as
 * `npm start` serves it): a scale project of BENCH_EMBEDDED_SPANS spans (default 100,000; a tenth
 * as many sessions, the longest a tenth of the spans) loaded into a fresh folder, then the same
 * cases in process and over HTTP. The folder is removed afterwards.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { env } from "@/lib/core/env";
import { disconnectDb } from "@/lib/db/client";
import { openEmbeddedDatabase } from "@/lib/db/embedded";
import { applyMigrations } from "@/lib/db/migrations";
import { loadScaleProject } from "@/lib/scale/load";
import type { BenchReport } from "./bench-report";
import { type RunOptions, questionsInProcess, forgetter } from "./questions-cases";
import { growthCurve } from "./questions-curve";
import { questionsOverHttp } from "./questions-http";
import { scaleTargets } from "./measure";

export const EMBEDDED_SPANS = 100_000;

export async function questionsEmbedded(report: BenchReport, options: RunOptions): Promise<void> {
  const spans = env().BENCH_EMBEDDED_SPANS ?? EMBEDDED_SPANS;
  if (spans === 0) return;
  const sessions = Math.max(2, Math.round(spans / 1000));
  const phase = `embedded database, ${spans.toLocaleString("en")} spans`;
  const folder = mkdtempSync(path.join(tmpdir(), "custodian-bench-"));
  const saved = { url: process.env.DATABASE_URL, mode: process.env.CUSTODIAN_DATABASE_MODE };
  const database = await openEmbeddedDatabase(path.join(folder, "pgdata"));
  try {
    await disconnectDb();
    process.env.DATABASE_URL = database.url;
    process.env.CUSTODIAN_DATABASE_MODE = "embedded";
    const loaded = await report.phase(phase, async () => {
      const t0 = performance.now();
      await applyMigrations(database.url);
      const totals = await loadScaleProject(database.direct, {
        slug: "scale",
        sessions,
        spans,
        big: Math.round(spans / 10),
        seed: 7,
      });
      await database.direct.query("vacuum analyze");
      console.log(
        `\nEmbedded database: loaded ${totals.sessions} sessions, ${totals.spans.toLocaleString("en")} spans, ` +
          `${totals.atoms.toLocaleString("en")} atoms in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
      return true;
    });
    if (!loaded) return;
    report.note(
      `${phase}: the database runs inside this process, so in process its CPU is in the server's figure, and over HTTP ` +
        `(the server a process of its own) it is not measured ("database n/a").`,
    );
    const targets = await scaleTargets("scale");
    const kept = await questionsInProcess(report, `in process, ${phase}`, targets, options);
    await report.phase(`growth, ${phase}`, () => growthCurve(report, `growth, ${phase}`, targets, options));
    if (kept !== undefined)
      await report.phase(`over HTTP, ${phase}`, () =>
        questionsOverHttp(
          report,
          database.url,
          {
            over: `whole project, ${phase}`,
            projectId: targets.projectId,
            keptVerdicts: kept,
            forget: forgetter(targets.projectId),
          },
          { ...options, databaseMode: "embedded" },
        ),
      );
  } finally {
    await disconnectDb();
    restore("DATABASE_URL", saved.url);
    restore("CUSTODIAN_DATABASE_MODE", saved.mode);
    await database.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

function restore(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
