import Link from "next/link";
import { Code } from "./Code";
import { bodySegments } from "./body-segments";
import { formatTime, humanize } from "./format";
import { formatKindCounts } from "@/lib/evidence/manifest";
import type { ExplainedSpan, RefusalExplanation as Explanation } from "@/lib/server/compactions";
import styles from "./RefusalExplanation.module.css";

/**
 * A refusal explained: the summary the gate refused (its text escaped like every body), the spans
 * it would have replaced with the atoms it dropped highlighted in their originals, and what would
 * have made each refused span acceptable. Renders what it is given; `basePath` is the project's.
 */
export function RefusalExplanation({ explanation, basePath }: { explanation: Explanation; basePath: string }) {
  const { refusal, summary, compaction, spans, spanTotal } = explanation;
  return (
    <>
      <dl className="facts panel" style={{ marginBottom: 16 }}>
        <dt>Refused</dt>
        <dd>
          <time dateTime={refusal.occurredAt}>{formatTime(new Date(refusal.occurredAt))}</time>
        </dd>
        <dt>Session</dt>
        <dd>
          <Link href={`${basePath}/sessions/${refusal.sessionId}`}>{refusal.sessionTitle}</Link>
        </dd>
        <dt>Cell</dt>
        <dd>
          <Code value={refusal.cell.class} /> × <Code value={refusal.cell.provenance} />
        </dd>
        <dt>Requested by</dt>
        <dd className="mono">{refusal.requester}</dd>
        <dt>Reason</dt>
        <dd>{refusal.reason}</dd>
        {compaction ? (
          <>
            <dt>The compaction</dt>
            <dd>
              {compaction.replacedCount} replaced, {compaction.refusedCount} refused
            </dd>
          </>
        ) : null}
      </dl>

      <section aria-labelledby="refused-summary-heading" className="panel" style={{ marginBottom: 16 }}>
        <h2 id="refused-summary-heading" style={{ marginTop: 0 }}>
          The refused summary
        </h2>
        {summary ? (
          <>
            <pre className="body-view" data-testid="refused-summary">
              {summary.text}
            </pre>
            <p>
              {summary.pointers.length === 0
                ? "It carried no provenance pointer."
                : `It carried ${summary.pointers.length} provenance pointer${summary.pointers.length === 1 ? "" : "s"}.`}{" "}
              {summary.manifest
                ? `Its omission manifest named ${formatKindCounts(summary.manifest.omitted)}.`
                : "It had no omission manifest."}
            </p>
          </>
        ) : (
          <p className="empty-state">The candidate summary of this refusal was not recorded (it predates kept summaries).</p>
        )}
      </section>

      <section aria-labelledby="spans-heading">
        <h2 id="spans-heading">The spans it would have replaced</h2>
        {spanTotal > spans.length ? (
          <p className="subtitle">
            Showing {spans.length} of {spanTotal}: this refusal's span, the other refused ones, then the rest.
          </p>
        ) : null}
        {spans.map((span) => (
          <ExplainedSpanView key={span.id} span={span} basePath={basePath} />
        ))}
      </section>
    </>
  );
}

function ExplainedSpanView({ span, basePath }: { span: ExplainedSpan; basePath: string }) {
  const refused = span.verdict === "REFUSE";
  return (
    <article className={`panel ${styles.span}`} data-testid="explained-span" aria-current={span.focus ? "true" : undefined}>
      <h3 className={styles.spanHead}>
        <Link href={`${basePath}/spans/${span.id}`}>{span.seq === null ? "Summary" : `Span ${span.seq}`}</Link>
        <span>
          <Code value={span.kind} />
        </span>
        <span>
          <Code value={span.cell.class} /> × <Code value={span.cell.provenance} />
        </span>
        <span className={`badge ${refused ? "lost" : "safe"}`} title={span.verdict}>
          {refused ? "refused" : humanize(span.verdict)}
        </span>
        {span.focus ? <span className="badge">this refusal</span> : null}
      </h3>
      <p>{span.reason}</p>
      {span.body ? <DroppedAtoms bytes={span.body} atoms={span.atomsAtRisk} /> : <p className="subtitle">{span.bodyGone}</p>}
      {refused && span.atomsAtRisk.length > 0 ? (
        <p className="subtitle">
          Dropped: {span.atomsAtRisk.length} atom{span.atomsAtRisk.length === 1 ? "" : "s"} (highlighted).
        </p>
      ) : null}
      {span.remedies ? <Remedies remedies={span.remedies} /> : null}
    </article>
  );
}

/** The body with the dropped atoms marked by byte range; text is escaped by React, never HTML. */
function DroppedAtoms({ bytes, atoms }: { bytes: Uint8Array; atoms: ExplainedSpan["atomsAtRisk"] }) {
  // An empty box says nothing: say that the span held no bytes (a tool result with no output).
  if (bytes.byteLength === 0) return <p className="subtitle">Its body is empty: 0 bytes.</p>;
  const segments = bodySegments(
    bytes,
    atoms.map((a) => ({ byteStart: a.byteStart, byteEnd: a.byteEnd, label: humanize(a.kind) })),
  );
  return (
    <pre className="body-view" data-testid="span-body">
      {segments.map((s) =>
        s.labels.length === 0 ? (
          <span key={s.byteStart}>{s.text}</span>
        ) : (
          <mark
            key={s.byteStart}
            className={styles.dropped}
            data-testid="dropped-atom"
            title={`dropped: ${s.labels.join(", ")} · bytes ${s.byteStart}–${s.byteEnd}`}
          >
            {s.text}
          </mark>
        ),
      )}
    </pre>
  );
}

function Remedies({ remedies }: { remedies: NonNullable<ExplainedSpan["remedies"]> }) {
  if (remedies.verdictNow !== "REFUSE")
    return (
      <p data-testid="remedy">
        Asked again now, the gate would accept this span as the summary stood (<Code value={remedies.verdictNow} />
        ).
      </p>
    );
  return (
    <>
      <p style={{ margin: "8px 0 0" }}>
        {remedies.remedies.length > 0
          ? "It would have been accepted with:"
          : "No change to the summary alone would make it acceptable."}
      </p>
      <ul className={styles.remedies}>
        {remedies.remedies.map((r) => (
          <li key={r.kind} data-testid="remedy">
            {r.text}
          </li>
        ))}
      </ul>
      {remedies.notes.map((n) => (
        <p key={n} className="subtitle">
          {n}
        </p>
      ))}
    </>
  );
}
