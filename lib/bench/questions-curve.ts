/**
 * How a question judged afresh grows: timed over the first tenth, quarter, half and all of a scale
 * project's sessions (spans and candidates grow together), and over the whole project with
 * predicates that find few or many candidates (spans fixed). A least-squares fit of
 * p50 = a + b * (millions of spans) + c * (thousands of candidate spans) separates the two costs;
 * from it the time at 10M and 100M spans, for a question finding candidates at the same rate.
 */
import { db } from "@/lib/db/client";
import { askEvidenceQuestion, type EvidenceQueryInput } from "@/lib/server/questions";
import type { BenchReport } from "./bench-report";
import { forgetter, type RunOptions } from "./questions-cases";
import { type ScaleTargets, measure, type Timing } from "./measure";
import { CpuMeter } from "./cpu";

interface Point {
  label: string;
  spans: number;
  candidates: number;
  blockers: number;
  p50: number;
  p95: number;
  cpu: Timing["cpu"];
}

export async function growthCurve(report: BenchReport, phase: string, targets: ScaleTargets, options: RunOptions) {
  const sessions = await db().session.findMany({
    where: { projectId: targets.projectId },
    select: { id: true, spanCount: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const canned = { canned: "modified-system-config" } as const;
  const scopes = [0.1, 0.25, 0.5, 1].map((share) => {
    const picked = sessions.slice(0, Math.max(1, Math.round(sessions.length * share)));
    return {
      label: `system config, first ${Math.round(share * 100)}% of sessions`,
      question: canned,
      sessionIds: share === 1 ? undefined : picked.map((s) => s.id),
      spans: picked.reduce((n, s) => n + s.spanCount, 0),
    };
  });
  const all = sessions.reduce((n, s) => n + s.spanCount, 0);
  const predicates = [
    { label: "service control, whole project", predicate: { effectKinds: ["SERVICE_CONTROL" as const] } },
    {
      label: "file deletes and moves, whole project",
      predicate: { effectKinds: ["FILE_DELETE" as const, "FILE_MOVE" as const] },
    },
    { label: "unknown tools, whole project", predicate: { effectKinds: ["UNKNOWN_TOOL" as const] } },
  ].map((p) => ({ label: p.label, question: { predicate: p.predicate }, sessionIds: undefined, spans: all }));
  const forget = forgetter(targets.projectId);
  const points: Point[] = [];
  for (const c of [...scopes, ...predicates]) {
    const input: EvidenceQueryInput = {
      projectId: targets.projectId,
      question: c.question,
      ...(c.sessionIds ? { scope: { sessionIds: c.sessionIds } } : {}),
    };
    let candidates = 0;
    let blockers = 0;
    const ask = async () => {
      const result = await askEvidenceQuestion(input, new Date(), {
        onProgress: (p) => {
          candidates = p.candidateSpans;
        },
        keepVerdicts: () => {}, // judged afresh every run: nothing kept
      });
      blockers = result.blockerCount;
    };
    const timing = await report.phase(phase, () =>
      measure(c.label, ask, {
        iterations: options.iterations,
        warmup: options.warmup,
        before: forget,
        cpu: new CpuMeter(options.cpuClient),
      }),
    );
    if (timing)
      points.push({ label: c.label, spans: c.spans, candidates, blockers, p50: timing.p50, p95: timing.p95, cpu: timing.cpu });
  }
  if (points.length === 0) return;
  const lines = [`Growth of a question judged afresh (${phase}; p50 of ${options.iterations} runs each):`];
  const width = Math.max(...points.map((p) => p.label.length));
  for (const p of points) {
    lines.push(
      `  ${p.label.padEnd(width)}  ${(p.spans / 1e6).toFixed(3)}M spans  ${p.candidates.toLocaleString("en").padStart(7)} candidate spans  ` +
        `${p.blockers.toLocaleString("en").padStart(7)} blockers  p50 ${p.p50.toFixed(0).padStart(5)} ms  p95 ${p.p95.toFixed(0).padStart(5)} ms  ` +
        `= ${(p.p50 / (p.spans / 1e6)).toFixed(0)} ms per 1M spans, ${(p.p50 / Math.max(1, p.candidates / 1000)).toFixed(0)} ms per 1k candidates` +
        (p.cpu
          ? `; cpu/run server ${p.cpu.server.toFixed(0)} ms, database ${p.cpu.db === null ? "n/a" : `${p.cpu.db.toFixed(0)} ms`}`
          : ""),
    );
  }
  const whole = points.find((p) => p.label === scopes[scopes.length - 1]!.label);
  lines.push(...fitLines("p50 (wall)", points, (p) => p.p50, whole));
  // CPU per run is disturbed far less by others' load than wall time: its fit is the steadier one.
  if (points.every((p) => p.cpu))
    lines.push(
      ...fitLines(
        points.every((p) => p.cpu!.db !== null) ? "CPU (server + database)" : "CPU (server, the database inside it)",
        points,
        (p) => p.cpu!.server + (p.cpu!.db ?? 0),
        whole,
      ),
    );
  report.note(lines.join("\n"));
  console.log(lines.join("\n"));
}

/**
 * A least-squares fit of y = a + b * (millions of spans) + c * (thousands of candidate spans), and
 * from it y at 10M and 100M spans for a question finding candidates at the whole project's rate.
 */
function fitLines(what: string, points: Point[], y: (p: Point) => number, whole: Point | undefined): string[] {
  const rows = points.map((p) => [1, p.spans / 1e6, p.candidates / 1000]);
  const ys = points.map(y);
  const fit = nonNegativeLeastSquares(rows, ys);
  if (!fit) return [`  ${what}: too few points for a fit`];
  const [a, b, c] = fit.x as [number, number, number];
  const lines = [
    `  fit of ${what}: ${a.toFixed(0)} ms + ${b.toFixed(0)} ms per 1M spans in scope + ${c.toFixed(1)} ms per 1k candidate spans` +
      ` (no term below zero; root-mean-square error ${fit.rmse.toFixed(0)} ms over ${points.length} points)`,
  ];
  if (whole) {
    const perMillion = whole.candidates / (whole.spans / 1e6);
    for (const millions of [10, 100]) {
      const k = (perMillion * millions) / 1000;
      lines.push(
        `    predicted ${what} at ${millions}M spans (system config, ${Math.round(perMillion * millions).toLocaleString("en")} candidate spans at this project's rate): ` +
          `${(a + b * millions + c * k).toFixed(0)} ms`,
      );
    }
  }
  return lines;
}

/**
 * The coefficients minimising the squared error of rows * x = y with none below zero (no cost is
 * negative: noise at small sizes made an unconstrained fit predict negative times): the best of
 * the unconstrained fits over every subset of the terms whose coefficients all come out at or
 * above zero, the others held at zero. Null when there are fewer points than terms.
 */
function nonNegativeLeastSquares(rows: number[][], y: number[]): { x: number[]; rmse: number } | null {
  const n = rows[0]!.length;
  if (rows.length < n) return null;
  let best: { x: number[]; sse: number } | null = null;
  for (let mask = 1; mask < 1 << n; mask++) {
    const terms = Array.from({ length: n }, (_, i) => i).filter((i) => mask & (1 << i));
    const sub = leastSquares(
      rows.map((r) => terms.map((i) => r[i]!)),
      y,
    );
    if (!sub || sub.some((v) => v < 0)) continue;
    const x = Array.from({ length: n }, () => 0);
    terms.forEach((i, k) => {
      x[i] = sub[k]!;
    });
    const sse = rows.reduce((s, r, k) => s + (r.reduce((t, v, i) => t + v * x[i]!, 0) - y[k]!) ** 2, 0);
    if (!best || sse < best.sse) best = { x, sse };
  }
  return best ? { x: best.x, rmse: Math.sqrt(best.sse / rows.length) } : null;
}

/** The coefficients minimising the squared error of rows * x = y (normal equations), or null. */
function leastSquares(rows: number[][], y: number[]): number[] | null {
  const n = rows[0]!.length;
  if (rows.length < n) return null;
  const a = Array.from({ length: n }, (_, i) => [
    ...Array.from({ length: n }, (_, j) => rows.reduce((s, r) => s + r[i]! * r[j]!, 0)),
    rows.reduce((s, r, k) => s + r[i]! * y[k]!, 0),
  ]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    if (Math.abs(a[pivot]![col]!) < 1e-9) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = a[r]![col]! / a[col]![col]!;
      for (let k = col; k <= n; k++) a[r]![k]! -= f * a[col]![k]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}
