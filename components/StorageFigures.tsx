import Link from "next/link";
import { projectHref } from "./project-href";
import { ReceivedChart } from "./charts/ReceivedChart";
import { prepareReceivedSeries } from "./charts/received-series";
import { classLabel } from "./policy-labels";
import type { StorageFigures as Figures } from "@/lib/server/retention";
import { formatBytes } from "./charts/what-if-series";
import { formatCount } from "./format";

/** What retention costs today: bytes held per class, runtime and session, and per day received. */
export function StorageFigures({ figures, project }: { figures: Figures; project: string }) {
  return (
    <section className="panel" aria-label="Storage" style={{ marginBottom: 16 }}>
      <h2 style={{ marginTop: 0 }}>Storage held</h2>
      <p>
        {formatCount(figures.total.originals)} originals, <strong>{formatBytes(figures.total.bytes)}</strong>.
      </p>
      <div style={{ display: "flex", gap: 24, flexWrap: "wrap", alignItems: "start" }}>
        <table className="figures" aria-label="Bytes by class">
          <thead>
            <tr>
              <th>Class</th>
              <th className="num">Originals</th>
              <th className="num">Bytes</th>
            </tr>
          </thead>
          <tbody>
            {(["NARRATIVE", "STRUCTURED", "SIDE_EFFECTING"] as const).map((c) => (
              <tr key={c}>
                <td>{classLabel(c)}</td>
                <td className="num">{formatCount(figures.byClass[c].originals)}</td>
                <td className="num">{formatBytes(figures.byClass[c].bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="figures" aria-label="Bytes by runtime">
          <thead>
            <tr>
              <th>Runtime</th>
              <th className="num">Originals</th>
              <th className="num">Bytes</th>
            </tr>
          </thead>
          <tbody>
            {figures.byRuntime.map((r) => (
              <tr key={r.runtime}>
                <td>{r.runtime}</td>
                <td className="num">{formatCount(r.originals)}</td>
                <td className="num">{formatBytes(r.bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="figures" aria-label="Largest sessions">
          <thead>
            <tr>
              <th>Session</th>
              <th>Runtime</th>
              <th className="num">Bytes</th>
            </tr>
          </thead>
          <tbody>
            {figures.bySession.map((s) => (
              <tr key={s.sessionId}>
                <td>
                  <Link href={projectHref(project, `/sessions/${s.sessionId}`)}>{s.title}</Link>
                </td>
                <td className="one-line">{s.runtime}</td>
                <td className="num one-line">{formatBytes(s.bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3>Received per day (still held), last {figures.growth.length} days</h3>
      <ReceivedChart series={prepareReceivedSeries(figures.growth)} />
    </section>
  );
}
