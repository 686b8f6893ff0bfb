import Link from "next/link";
import { Code } from "@/components/Code";
import { orNotFound } from "../../or-not-found";
import { projectHref } from "@/components/project-href";
import { humanize } from "@/components/format";
import { ExcerptNote } from "@/components/ExcerptNote";
import { SpanBody } from "@/components/SpanBody";
import { AgentName, CallOutcome } from "@/components/CallOutcome";
import { Time } from "@/components/Time";
import { formatKindCounts, type KindCount } from "@/lib/evidence/manifest";
import { cellSafety } from "@/lib/evidence/safety";
import { getSpanDetail } from "@/lib/server/dashboard";
import { RetentionControls } from "@/components/RetentionControls";
import { can } from "@/lib/core/permissions";
import { requireMember } from "@/lib/auth/project-access";
import { pinAction, setExpiryAction, unpinAction } from "./actions";

export const metadata = { title: "Span" };

const DAY_MS = 86_400_000;
/** Rows of the atoms table, and characters of each value shown: a large body's atoms stay a bounded page. */
const ATOMS_LISTED = 100;
const ATOM_VALUE_CHARS = 300;

function daysFrom(now: Date, when: Date): string {
  const days = Math.round((when.getTime() - now.getTime()) / DAY_MS);
  return days >= 0 ? `in ${days} days` : `${-days} days ago`;
}

function intParam(value: string | string[] | undefined): number | undefined {
  return typeof value === "string" && /^\d+$/.test(value) ? Number(value) : undefined;
}

export default async function SpanPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string; id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { slug, id } = await params;
  const { project, role } = await requireMember(slug);
  const query = await searchParams;
  const from = intParam(query.from);
  const to = intParam(query.to);
  const cited = from !== undefined && to !== undefined && to > from ? { byteStart: from, byteEnd: to } : undefined;
  const now = new Date();
  const detail = await orNotFound(getSpanDetail(project.id, id, now, cited));
  const { span } = detail;

  return (
    <>
      <p className="subtitle" style={{ marginBottom: 4 }}>
        <Link href={projectHref(project.slug, `/sessions/${span.sessionId}`)}>
          {span.session.title ?? span.session.externalId}
        </Link>{" "}
        · project {project.name}
      </p>
      <h1>
        {humanize(span.kind)} {span.seq !== null ? `#${span.seq}` : ""}{" "}
        {span.toolName ? <span className="mono">{span.toolName}</span> : null}
      </h1>
      <p className="subtitle">
        <span className={`badge ${cellSafety(span.class, detail.provenance)}`}>
          <Code value={span.class} /> × <Code value={detail.provenance} />
        </span>{" "}
        <span className="badge">
          <Code value={span.transcriptState} />
        </span>{" "}
        · occurred <Time value={span.occurredAt} />
      </p>
      <section aria-label="Call and origin">
        <dl className="facts">
          <dt>Outcome</dt>
          <dd data-testid="outcome">
            {span.outcome ? (
              <CallOutcome outcome={span.outcome} />
            ) : span.kind === "TOOL_CALL" || span.kind === "TOOL_RESULT" ? (
              "not recorded"
            ) : (
              "not a tool call"
            )}
          </dd>
          <dt>Exit code</dt>
          <dd data-testid="exit-code" className={span.exitCode !== null ? "mono" : undefined}>
            {span.exitCode ?? "not recorded"}
          </dd>
          <dt>Agent</dt>
          <dd data-testid="agent">
            <AgentName agentId={span.agentId} agentType={span.agentType} />
          </dd>
          <dt>Source</dt>
          <dd data-testid="source-line">
            {span.sourceLine !== null ? `line ${span.sourceLine} of the imported file` : "not imported from a file"}
          </dd>
        </dl>
      </section>

      <h2>Verbatim body</h2>
      {detail.excerpt ? (
        <>
          <ExcerptNote excerpt={detail.excerpt} href={projectHref(project.slug, `/spans/${span.id}/original`)} />
          <SpanBody bytes={detail.excerpt.bytes} base={detail.excerpt.start} atoms={detail.atoms} cited={cited} />
        </>
      ) : (
        <div className="panel empty-state">
          The original is gone
          {detail.deletedAt ? (
            <>
              {" "}
              (deleted <Time value={detail.deletedAt} />)
            </>
          ) : null}
          : its {span.byteLength} bytes cannot be shown.
        </div>
      )}

      <div className="columns">
        <section aria-label="Provenance">
          <h2>Provenance and retention</h2>
          <dl className="facts">
            <dt>sha256</dt>
            <dd className="mono">{span.sha256}</dd>
            <dt>Hash check</dt>
            <dd data-testid="hash-check">
              {detail.hashCheck === "verified" ? (
                <span className="badge safe">verified now</span>
              ) : detail.hashCheck === "mismatch" ? (
                <span className="badge lost">mismatch: held bytes hash to {detail.liveSha256}</span>
              ) : (
                <span className="badge lost">no bytes held</span>
              )}
            </dd>
            <dt>Pointer</dt>
            <dd>
              {span.hasPointer
                ? "a provenance pointer links the transcript to these bytes"
                : "no pointer: the summary that replaced it did not carry one"}
            </dd>
            <dt>Expires</dt>
            <dd data-testid="expires">
              {detail.pinned ? (
                <span className="badge safe">pinned (legal hold)</span>
              ) : detail.expiresAt ? (
                <>
                  <Time value={detail.expiresAt} /> ({daysFrom(now, detail.expiresAt)})
                </>
              ) : (
                "never"
              )}
            </dd>
            <dt>Evidence horizon</dt>
            <dd>
              <Time value={detail.horizonAt} /> ({daysFrom(now, detail.horizonAt)})
            </dd>
            <dt>Size</dt>
            <dd>{span.byteLength} bytes</dd>
          </dl>
        </section>
        <section aria-label="Classification">
          {detail.excerpt ? (
            <RetentionControls
              spanId={span.id}
              pinned={detail.pinned}
              allowed={{
                pin: can(role, "originals:pin"),
                unpin: can(role, "originals:unpin"),
                extend: can(role, "originals:extend"),
                shorten: can(role, "originals:shorten"),
              }}
              actions={{
                pin: pinAction.bind(null, project.slug),
                unpin: unpinAction.bind(null, project.slug),
                setExpiry: setExpiryAction.bind(null, project.slug),
              }}
            />
          ) : null}
          <h2>
            Why <Code value={span.class} />
          </h2>
          <ul>
            {detail.classReasons.map((reason) => (
              <li key={`${reason.rule}:${reason.detail}`}>
                {reason.detail}{" "}
                <span className="mono" style={{ color: "var(--muted)" }}>
                  ({reason.rule})
                </span>
              </li>
            ))}
          </ul>
          <h2>Atoms ({detail.atoms.length})</h2>
          {detail.atoms.length > ATOMS_LISTED ? (
            <p className="subtitle" data-testid="atoms-note">
              The first {ATOMS_LISTED} are listed; every atom is highlighted where the body is shown.
            </p>
          ) : null}
          {detail.atoms.length === 0 ? (
            <div className="panel empty-state" data-testid="no-atoms">
              No atoms: nothing in this span that a question could cite.
            </div>
          ) : (
            <table className="data" aria-label="Atoms">
              <thead>
                <tr>
                  <th>Kind</th>
                  <th>Value</th>
                  <th>Bytes</th>
                  <th>Effect</th>
                </tr>
              </thead>
              <tbody>
                {detail.atoms.slice(0, ATOMS_LISTED).map((atom) => (
                  <tr key={`${atom.kind}:${atom.byteStart}:${atom.byteEnd}:${atom.argName ?? ""}`}>
                    <td>
                      <Code value={atom.kind} />
                    </td>
                    <td className="mono">
                      {atom.normalized.length > ATOM_VALUE_CHARS
                        ? `${atom.normalized.slice(0, ATOM_VALUE_CHARS)}…`
                        : atom.normalized}
                      {atom.negated ? " (negated)" : ""}
                    </td>
                    <td className="mono">
                      {atom.byteStart}–{atom.byteEnd}
                    </td>
                    <td>{atom.effect ? <Code value={atom.effect} /> : ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>

      {detail.lineage ? (
        <section aria-label="Lineage">
          <h2>Lineage</h2>
          <p>
            Generation {detail.lineage.generation} summary over {detail.lineage.roots.length} original spans; class{" "}
            <Code value={detail.lineage.class} />, provenance <Code value={detail.lineage.provenance} />; keeps or names{" "}
            {(detail.lineage.fidelity * 100).toFixed(0)}% of its roots' atoms.
          </p>
          <table className="data" aria-label="Fidelity per generation">
            <thead>
              <tr>
                <th className="num">Generation</th>
                <th className="num">Fidelity</th>
                <th className="num">Summaries</th>
              </tr>
            </thead>
            <tbody>
              {detail.lineage.fidelityByGeneration.map((g) => (
                <tr key={g.generation}>
                  <td className="num">{g.generation}</td>
                  <td className="num">{(g.fidelity * 100).toFixed(0)}%</td>
                  <td className="num">{g.summaryIds.length}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <ul>
            {span.replaces.map((link) => (
              <li key={link.replacedSpanId}>
                replaces{" "}
                <Link href={projectHref(project.slug, `/spans/${link.replacedSpanId}`)} className="mono">
                  {link.replacedSpanId.slice(0, 8)}
                </Link>{" "}
                {link.pointerSha256 ? "with a pointer" : "without a pointer"}; its text lacks{" "}
                {formatKindCounts(link.dropped as unknown as KindCount[])}
              </li>
            ))}
          </ul>
        </section>
      ) : detail.lineageProblem ? (
        <section aria-label="Lineage">
          <h2>Lineage</h2>
          <p>No lineage can be computed ({detail.lineageProblem}); a summary on a cycle of links has no provenance (NONE).</p>
        </section>
      ) : null}
      {span.replacedBy.length > 0 ? (
        <p>
          Replaced by summary{" "}
          {span.replacedBy.map((l) => (
            <Link key={l.summarySpanId} href={projectHref(project.slug, `/spans/${l.summarySpanId}`)} className="mono">
              {l.summarySpanId.slice(0, 8)}
            </Link>
          ))}{" "}
          {span.replacedBy.some((l) => l.pointerSha256)
            ? "carrying a pointer to these bytes."
            : "that carries no pointer to these bytes."}
        </p>
      ) : null}

      <h2>Gate decisions</h2>
      {span.gateDecisions.length === 0 ? (
        <div className="panel empty-state">The gate has not been asked about this span.</div>
      ) : (
        <table className="data" aria-label="Gate decisions">
          <thead>
            <tr>
              <th>When</th>
              <th>Verdict</th>
              <th>Cell</th>
              <th>Reason</th>
              <th>Requested by</th>
            </tr>
          </thead>
          <tbody>
            {span.gateDecisions.map((d) => (
              <tr key={d.id}>
                <td>
                  <Time value={d.decidedAt} />
                </td>
                <td>
                  <span className={`badge ${d.verdict === "REFUSE" ? "lost" : d.verdict === "RECLAIM_HONEST" ? "risk" : "safe"}`}>
                    <Code value={d.verdict} />
                  </span>
                </td>
                <td>
                  <Code value={d.cellClass} /> × <Code value={d.cellProvenance} />
                </td>
                <td>{d.reason}</td>
                <td className="mono">{d.requester}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
