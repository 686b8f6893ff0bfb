import type { TranscriptAtRisk } from "@/lib/server/capture";
import { formatCount } from "./format";
import { Time } from "./Time";

const DAY_MS = 86_400_000;

/**
 * Local transcripts that a runtime's own cleanup deletes soon and that the watcher has not fully
 * imported: once deleted, what was not imported is gone. Nothing is shown when none is at risk.
 */
export function TranscriptsAtRisk({ risks, now, withinDays }: { risks: TranscriptAtRisk[]; now: Date; withinDays: number }) {
  if (risks.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="transcripts-at-risk" style={{ marginBottom: 16 }}>
      <h2 id="transcripts-at-risk" style={{ marginTop: 0 }}>
        <span className="badge lost">Warning</span> {formatCount(risks.length)} local transcript{risks.length === 1 ? "" : "s"} at
        risk
      </h2>
      <p>
        A runtime's own cleanup deletes these files within {withinDays} days and they are not fully imported. Let{" "}
        <code>custodian watch</code> finish them, fix what failed, or upload them here before they go.
      </p>
      <table className="data stacked" aria-label="Transcripts at risk">
        <thead>
          <tr>
            <th>File</th>
            <th>Runtime</th>
            <th>Deleted on</th>
            <th className="num">Days left</th>
            <th>Not imported</th>
          </tr>
        </thead>
        <tbody>
          {risks.map((r) => (
            <tr key={r.path}>
              {/* A path is one long word: it breaks anywhere rather than widening the page. */}
              <td className="mono" style={{ wordBreak: "break-all" }} data-label="File">
                {r.path}
              </td>
              <td className="short" data-label="Runtime">
                {r.runtime}
              </td>
              <td className="short" data-label="Deleted on">
                <Time value={r.deleteAt} />
              </td>
              <td className="num" data-label="Days left">
                {Math.max(0, Math.ceil((r.deleteAt.getTime() - now.getTime()) / DAY_MS))}
              </td>
              <td data-label="Not imported">
                {r.error ? <span className="error-text">Import failed: {r.error}</span> : `${formatCount(r.missingBytes)} bytes`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
