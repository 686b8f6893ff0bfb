/** The fuzz run's report: counts by status and route, and the 5xx findings, as data and as a table. */

export interface Finding {
  route: string;
  status: number;
  path: string;
  body: string;
  response: string;
}

export interface FuzzReport {
  requests: number;
  byStatus: Record<number, number>;
  byRoute: Record<string, Record<number, number>>;
  findings: Finding[];
  serverErrors: number;
  routes: string[];
}

/** The report as a table: counts by status, then by route and status. */
export function formatReport(report: FuzzReport): string {
  const statuses = Object.keys(report.byStatus)
    .map(Number)
    .sort((a, b) => a - b);
  const lines = [
    `${report.requests} requests over ${report.routes.length} route files; ${report.serverErrors} responses 5xx`,
    `by status: ${statuses.map((s) => `${s}: ${report.byStatus[s]}`).join(", ")}`,
    "",
    "by route:",
  ];
  for (const key of Object.keys(report.byRoute).sort()) {
    const row = report.byRoute[key]!;
    const cells = Object.keys(row)
      .map(Number)
      .sort((a, b) => a - b)
      .map((s) => `${s}: ${row[s]}`);
    lines.push(`  ${key.padEnd(52)} ${cells.join(", ")}`);
  }
  for (const f of report.findings)
    lines.push("", `5xx ${f.status} ${f.route} ${f.path}`, `  body: ${f.body}`, `  answer: ${f.response}`);
  return lines.join("\n");
}
