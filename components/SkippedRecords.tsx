import Link from "next/link";
import { projectHref } from "./project-href";
import { formatCount } from "./format";

export interface SkippedRecordRow {
  line: number;
  reason: string;
  /** Set when the list spans sessions: the record's session, linked. */
  session?: { id: string; title: string };
}

/**
 * The records an import skipped, and what that means: the session is incomplete, so while they
 * stand no evidence question answers NO over it. Line 0 stands for the file as a whole; a file
 * that lacks an end of its session is marked at that end (its first line, or one past its last).
 */
export function SkippedRecords({
  records,
  total,
  scope,
  project,
  source = "the imported file",
}: {
  records: readonly SkippedRecordRow[];
  total: number;
  /** "this session" or "these sessions": what the NO is blocked over. */
  scope: string;
  /** The project's slug, for links to the sessions rows name (a session's own page has no such rows). */
  project?: string;
  /** Where the records were read from. */
  source?: string;
}) {
  if (total === 0) return null;
  const bySession = records.some((r) => r.session);
  return (
    <section aria-labelledby="skipped-records" className="panel" data-testid="skipped-records" style={{ marginTop: 16 }}>
      <h2 id="skipped-records" style={{ marginTop: 0 }}>
        Skipped records ({formatCount(total)})
      </h2>
      <p>
        <strong>Incomplete import:</strong> {formatCount(total)} record{total === 1 ? "" : "s"} of {source} could not be used or{" "}
        {total === 1 ? "is" : "are"} missing (a file that starts after its session began, or ends before it ended, is marked at
        that end). While {total === 1 ? "it stands" : "they stand"}, no evidence question answers NO over {scope}: what{" "}
        {total === 1 ? "it" : "they"} held cannot be checked.
      </p>
      <table className="data" aria-label="Skipped records">
        <thead>
          <tr>
            {bySession ? <th>Session</th> : null}
            <th className="num">Line</th>
            <th>Reason</th>
          </tr>
        </thead>
        <tbody>
          {records.map((r) => (
            <tr key={`${r.session?.id ?? ""}:${r.line}`}>
              {bySession ? (
                <td>
                  {r.session ? (
                    project ? (
                      <Link href={projectHref(project, `/sessions/${r.session.id}`)}>{r.session.title}</Link>
                    ) : (
                      r.session.title
                    )
                  ) : null}
                </td>
              ) : null}
              <td className="num">{r.line === 0 ? "whole file" : r.line}</td>
              <td>{r.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {records.length < total ? (
        <p className="subtitle">
          The first {formatCount(records.length)} of {formatCount(total)} are listed.
        </p>
      ) : null}
    </section>
  );
}
