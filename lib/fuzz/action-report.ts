/** The server-action fuzz run's report: counts by outcome, by action and by caller, and every finding. */

export interface ActionFinding {
  /**
   * "5xx": Next.js would answer 500; "refusal": a call that had to be refused was not, or with
   * another code; "changed": a refused batch changed data, or a project changed in a batch where
   * none of its members (nor an instance admin) acted in it.
   */
  kind: "5xx" | "refusal" | "changed";
  action: string;
  call: string;
  outcome: string;
}

export interface ActionReport {
  calls: number;
  batches: number;
  /** Outcomes: "ok", an error code, "redirect", "refused" (a sign-in form's error), "threw". */
  byStatus: Record<string, number>;
  byAction: Record<string, Record<string, number>>;
  byStanding: Record<string, Record<string, number>>;
  findings: ActionFinding[];
  serverErrors: number;
  /** Calls that had to be refused (another site, a stranger, a non-member, not an instance admin) but were not, or not as expected. */
  wrongRefusals: number;
  /** Batches in which every call was refused yet data or the audit log changed, or a project changed that no one allowed acted in. */
  changedByRefusal: number;
  /** Batches in which every call was refused (those the data check covers). */
  refusedBatches: number;
  actions: string[];
  /** Exported actions the run has no form for, so did not call. */
  uncovered: string[];
}

export function emptyActionReport(actions: string[]): ActionReport {
  return {
    calls: 0,
    batches: 0,
    byStatus: {},
    byAction: {},
    byStanding: {},
    findings: [],
    serverErrors: 0,
    wrongRefusals: 0,
    changedByRefusal: 0,
    refusedBatches: 0,
    actions,
    uncovered: [],
  };
}

function count(table: Record<string, Record<string, number>>, row: string, status: string) {
  const cells = (table[row] ??= {});
  cells[status] = (cells[status] ?? 0) + 1;
}

export function countCall(report: ActionReport, action: string, standing: string, status: string): void {
  report.calls++;
  report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
  count(report.byAction, action, status);
  count(report.byStanding, standing, status);
}

/** Keeps at most a few findings of a kind per action, so one cause does not flood the report. */
export function addFinding(report: ActionReport, finding: ActionFinding): void {
  if (report.findings.filter((f) => f.action === finding.action && f.kind === finding.kind).length < 3)
    report.findings.push(finding);
}

function cells(row: Record<string, number>): string {
  return Object.keys(row)
    .sort()
    .map((s) => `${s}: ${row[s]}`)
    .join(", ");
}

/** The report as a table: outcomes overall, by action and by caller, then the findings. */
export function formatActionReport(report: ActionReport): string {
  const lines = [
    `${report.calls} server action calls in ${report.batches} batches over ${report.actions.length} actions; ` +
      `${report.serverErrors} answered 500, ${report.wrongRefusals} refusals wrong, ` +
      `${report.changedByRefusal} of ${report.refusedBatches} refused batches changed data`,
    `by outcome: ${cells(report.byStatus)}`,
    "",
    "by action:",
    ...Object.keys(report.byAction)
      .sort()
      .map((a) => `  ${a.replace(/^app\//, "").padEnd(60)} ${cells(report.byAction[a]!)}`),
    "",
    "by caller:",
    ...Object.keys(report.byStanding)
      .sort()
      .map((s) => `  ${s.padEnd(16)} ${cells(report.byStanding[s]!)}`),
  ];
  if (report.uncovered.length > 0) lines.push("", `not called (no form for them): ${report.uncovered.join(", ")}`);
  for (const f of report.findings) lines.push("", `${f.kind} ${f.action}`, `  call: ${f.call}`, `  outcome: ${f.outcome}`);
  return lines.join("\n");
}
