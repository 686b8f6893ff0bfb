import type { EvidenceExportDocument as ExportDocument } from "@/lib/server/questions";
import { Code } from "./Code";
import styles from "./EvidenceExportDocument.module.css";
import { formatCount } from "./format";
import { CompletenessCaseList } from "./CompletenessCaseList";
import { Time } from "./Time";

const ANSWER_TONE = { YES: "safe", NO: "safe", INSUFFICIENT_EVIDENCE: "lost" } as const;

/**
 * An evidence export as a printable page: the same facts as the JSON document (who asked what,
 * when, of which project, over which scope, under which policy and Custodian version), the answer,
 * every blocker and citation with its hashes, and the export's hash. Transcript text (excerpts,
 * predicates) is rendered as text, never as HTML.
 */
export function EvidenceExportDocument({ document: d }: { document: ExportDocument }) {
  const a = d.answer;
  return (
    <article className={styles.document} aria-label="Evidence export">
      <h1>Evidence export: {d.question.title}</h1>
      <dl className={styles.facts}>
        <dt>Project</dt>
        <dd>
          {d.project.name}{" "}
          <span className={styles.hash}>
            ({d.project.slug}, {d.project.id})
          </span>
        </dd>
        <dt>Asked by</dt>
        <dd>{d.askedBy.email}</dd>
        <dt>Asked at</dt>
        <dd>
          {/* As every time on the dashboard; the JSON document keeps the instant to the millisecond. */}
          <Time value={new Date(d.askedAt)} />
        </dd>
        <dt>Custodian version</dt>
        <dd>{d.custodianVersion}</dd>
        <dt>Retention policy</dt>
        <dd>version {d.policy.version}</dd>
        <dt>Export format</dt>
        <dd>
          {d.format} version {d.formatVersion}
        </dd>
        <dt>Export sha256</dt>
        <dd className={styles.hash} data-testid="export-sha256">
          {d.exportSha256}
        </dd>
      </dl>

      <h2>Question</h2>
      <p className={styles.words}>{d.question.inWords}</p>
      <details open>
        <summary>As predicates</summary>
        <pre className={styles.predicates}>{JSON.stringify(d.question.predicates, null, 2)}</pre>
      </details>

      <h2>Scope</h2>
      <p>{d.scope.inWords}</p>

      <h2>Answer</h2>
      <p>
        <span className={`badge ${ANSWER_TONE[a.answer]}`}>
          {a.answer === "INSUFFICIENT_EVIDENCE" ? "Insufficient evidence" : a.answer}
        </span>
        {a.noSpansInScope ? " No spans in scope." : ""}
      </p>
      <dl className={styles.facts}>
        <dt>Scope complete</dt>
        <dd>{a.scopeComplete ? "yes" : "no"}</dd>
        <dt>Spans checked</dt>
        <dd>{formatCount(a.checkedSpans)}</dd>
        <dt>Sessions in scope</dt>
        <dd>{formatCount(a.sessionsInScope)}</dd>
        <dt>Citations</dt>
        <dd>{formatCount(a.citationCount)}</dd>
        <dt>Blockers</dt>
        <dd>{formatCount(a.blockerCount)}</dd>
        <dt>Attempts cited</dt>
        <dd>{a.outcomeSummary}</dd>
        <dt>Gaps in seq</dt>
        <dd>{a.gaps.length === 0 ? "none" : a.gaps.map((g) => `${g.sessionId} ${g.fromSeq}–${g.toSeq}`).join("; ")}</dd>
        <dt>Skipped records</dt>
        <dd>{formatCount(a.skippedRecords.length)}</dd>
      </dl>

      <CompletenessCaseList completeness={a.completeness} />

      {a.blockers.length > 0 && (
        <>
          <h2>Blockers</h2>
          <table className="data">
            <thead>
              <tr>
                <th>Span</th>
                <th className="num">Seq</th>
                <th>Why it blocks</th>
                <th>What unblocks it</th>
              </tr>
            </thead>
            <tbody>
              {a.blockers.map((b) => (
                <tr key={`${b.sessionId}/${b.spanId}`}>
                  <td className={styles.hash}>{b.spanId}</td>
                  <td className="num">{b.seq}</td>
                  <td>{b.reason}</td>
                  <td>{b.unblock}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}

      <h2>Citations</h2>
      {d.citations.length === 0 ? (
        <p>None.</p>
      ) : (
        <ol className={styles.citations}>
          {d.citations.map((c, i) => (
            // A citation is an atom: its span and byte range (and kind) name it once.
            <li key={`${c.sessionId}/${c.spanId}/${c.byteStart}/${c.byteEnd}/${c.atomKind}`} className={styles.citation}>
              <h3>
                {i + 1}. <Code value={c.atomKind} /> at seq {c.seq}, bytes {c.byteStart}–{c.byteEnd}
                {c.outcome ? (
                  <>
                    {" "}
                    (call <Code value={c.outcome} />
                    {c.exitCode !== null ? `, exit ${c.exitCode}` : ""})
                  </>
                ) : null}
              </h3>
              <pre className={styles.excerpt}>{c.excerpt}</pre>
              <dl className={styles.facts}>
                <dt>Session / span</dt>
                <dd className={styles.hash}>
                  {c.sessionId} / {c.spanId}
                </dd>
                <dt>Original sha256</dt>
                <dd className={styles.hash}>{c.sha256}</dd>
                <dt>Cited bytes sha256</dt>
                <dd className={styles.hash}>{c.citedSha256 ?? "no original bytes were cited"}</dd>
              </dl>
            </li>
          ))}
        </ol>
      )}
      <p>
        Verify this export with <code>custodian verify-export &lt;file&gt;</code> against its JSON download; the sha256 above is
        over its canonical form.
      </p>
    </article>
  );
}
