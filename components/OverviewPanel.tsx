import Link from "next/link";
import { Fragment } from "react";
import { OverviewChart } from "./charts/OverviewChart";
import type { OverviewChartModel } from "./charts/overview-series";
import { formatBytes } from "./charts/what-if-series";
import { formatCount } from "./format";

/**
 * One figure of the overview: what kind of figure it is when that needs saying (a projection), its
 * totals as text, the chart (or the sentence saying the range holds nothing), every bucket's
 * numbers in a table for whoever cannot read the bars, and the link into the list behind it.
 */
export function OverviewPanel({ chart }: { chart: OverviewChartModel }) {
  const headingId = `overview-${chart.id}`;
  const format = chart.unit === "bytes" ? formatBytes : formatCount;
  return (
    <section className="panel overview-panel" aria-labelledby={headingId}>
      <h2 id={headingId} style={{ marginTop: 0 }}>
        {chart.title}
      </h2>
      {chart.note ? <p className="subtitle">{chart.note}</p> : null}
      <dl className="facts">
        {chart.figures.map((f) => (
          <Fragment key={f.label}>
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </Fragment>
        ))}
      </dl>
      {chart.empty ? (
        <p className="empty-state">{chart.empty}</p>
      ) : (
        <>
          <OverviewChart chart={chart} />
          <details>
            <summary>The numbers</summary>
            <div className="table-scroll">
              <table className="data" aria-label={`${chart.title}: the numbers`}>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    {chart.keys.map((k) => (
                      <th key={k.key} scope="col" className="num">
                        {k.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {chart.points.map((p) => (
                    <tr key={p.title}>
                      <th scope="row">{p.title}</th>
                      {chart.keys.map((k) => (
                        <td key={k.key} className="num">
                          {format(p.values[k.key] ?? 0)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
      <p style={{ marginBottom: 0 }}>
        <Link href={chart.link.href}>{chart.link.text}</Link>
      </p>
    </section>
  );
}
