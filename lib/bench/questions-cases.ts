/**
 * The questions benchmark in process: the canned "modified-system-config" question through the use
 * case (askEvidenceQuestion) over a scale project, as a reviewer meets it: with the stored verdicts
 * of every session current, with some sessions written to since, and judged afresh with none
 * stored; over the whole project, the last 90 days, a median and the longest session. Verdicts
 * judged afresh are kept after the answer, as the API and the Evidence page keep them (after the
 * response), and the keeping is timed on its own.
 */
import { db } from "@/lib/db/client";
import { askEvidenceQuestion, type EvidenceQueryInput, type EvidenceQueryResult } from "@/lib/server/questions";
import type { BenchReport } from "./bench-report";
import { type ScaleTargets, timingOf } from "./measure";
import { CpuMeter } from "./cpu";
import type pg from "pg";

/** Sessions that a question's stored verdicts are stale for, as if written to since it was asked. */
const CHANGED_SESSIONS = 10;

export interface RunOptions {
  iterations: number;
  warmup: number;
  /** A connection of its own to the database measured, to read its backends' CPU (none: not read). */
  cpuClient?: pg.ClientBase;
}

export function describeAnswer(result: EvidenceQueryResult): string {
  return (
    `${result.answer}: ${result.citationCount.toLocaleString("en")} citations, ${result.blockerCount.toLocaleString("en")} blockers, ` +
    `${result.gaps.length} seq gaps, ${result.checkedSpans.toLocaleString("en")} spans checked in ${result.sessionsInScope} sessions`
  );
}

/**
 * Verdicts kept the way the routes keep them: handed over with the answer, and written after it
 * (here before the next run starts, untimed), each writing timed.
 */
export function keptAfterTheAnswer() {
  let queued: Array<() => Promise<void>> = [];
  const samples: number[] = [];
  return {
    keepVerdicts: (work: () => Promise<void>) => {
      queued.push(work);
    },
    async settle(): Promise<void> {
      const works = queued;
      queued = [];
      if (works.length === 0) return;
      const t0 = performance.now();
      for (const work of works) await work();
      samples.push(performance.now() - t0);
    },
    samples,
  };
}

export function forgetter(projectId: string) {
  return () => db().questionVerdict.deleteMany({ where: { session: { projectId } } });
}

/**
 * Runs every case into the report; returns how many verdicts an answer over the whole project
 * judged afresh keeps (the HTTP phase waits for the server to keep as many).
 */
export async function questionsInProcess(
  report: BenchReport,
  phase: string,
  targets: ScaleTargets,
  options: RunOptions,
): Promise<number | undefined> {
  const question = { canned: "modified-system-config" };
  const project: EvidenceQueryInput = { projectId: targets.projectId, question };
  const typical: EvidenceQueryInput = { ...project, scope: { sessionIds: [targets.typical.id] } };
  const forget = forgetter(targets.projectId);
  const touch = () => db().$executeRaw`
    update session set evidence_version = evidence_version + 1
     where id in (select id from session where project_id = ${targets.projectId}::uuid order by random() limit ${CHANGED_SESSIONS})`;
  const keeping = keptAfterTheAnswer();
  const afresh = async () => {
    await keeping.settle();
    await forget();
  };
  const cases: Array<{ label: string; input: EvidenceQueryInput; target?: number; before: () => Promise<unknown> }> = [
    { label: "whole project, judged afresh (no stored verdicts)", input: project, target: 300, before: afresh },
    { label: "whole project, stored verdicts current", input: project, target: 300, before: keeping.settle },
    {
      label: `whole project, ${CHANGED_SESSIONS} sessions written since`,
      input: project,
      target: 300,
      before: () => keeping.settle().then(touch),
    },
    {
      label: "whole project, last 90 days (a time range: always judged afresh)",
      input: { ...project, scope: { from: new Date(Date.now() - 90 * 86_400_000) } },
      target: 300,
      before: keeping.settle,
    },
    { label: `one session (median, ${targets.typical.spans} spans), judged afresh`, input: typical, target: 50, before: afresh },
    {
      label: `one session (median, ${targets.typical.spans} spans), stored verdict current`,
      input: typical,
      target: 50,
      before: keeping.settle,
    },
    {
      label: `one session (longest, ${targets.big.spans.toLocaleString("en")} spans), judged afresh`,
      input: { ...project, scope: { sessionIds: [targets.big.id] } },
      before: afresh,
    },
  ];
  const timings = report.section(`${phase}: ${options.iterations} sequential runs each after ${options.warmup} warm-up runs`);
  // How many verdicts an answer judged afresh keeps, with the keeping awaited.
  const kept = await report.phase(phase, async () => {
    await forget();
    await askEvidenceQuestion(project);
    return db().questionVerdict.count({ where: { session: { projectId: targets.projectId } } });
  });
  for (const c of cases) {
    const ask = () => askEvidenceQuestion(c.input, new Date(), { keepVerdicts: keeping.keepVerdicts });
    const described = await report.phase(phase, async () => {
      await c.before();
      return describeAnswer(await ask());
    });
    if (described) console.log(`  ${phase}, ${c.label}: ${described}`);
    const keptBefore = keeping.samples.length;
    await report.time(phase, timings, c.label, ask, {
      iterations: options.iterations,
      warmup: options.warmup,
      before: c.before,
      cpu: new CpuMeter(options.cpuClient),
      ...(c.target ? { target: c.target } : {}),
    });
    if (c.input === project && c.before === afresh) {
      const samples = keeping.samples.slice(keptBefore);
      if (samples.length > 0)
        timings.push(timingOf("  keeping its verdicts, after the answer (untimed above, as the API does)", samples));
    }
  }
  await keeping.settle();
  return kept;
}
