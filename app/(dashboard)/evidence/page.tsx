import Link from "next/link";
import { humanize } from "@/components/format";
import { formatKindCounts } from "@/lib/evidence/manifest";
import { CANNED_QUESTION_IDS, CANNED_QUESTIONS } from "@/lib/evidence/questions";
import { db } from "@/lib/db/client";
import { askEvidenceQuestion } from "@/lib/server/evidence";

export const metadata = { title: "Evidence" };

const ANSWER_TONE = { YES: "safe", NO: "safe", INSUFFICIENT_EVIDENCE: "lost" } as const;

export default async function EvidencePage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const query = await searchParams;
  const projects = await db().project.findMany({ orderBy: { createdAt: "asc" }, select: { id: true, slug: true } });
  const project = projects.find((p) => p.slug === query.project) ?? projects[0];
  const questionId = query.q && (CANNED_QUESTION_IDS as readonly string[]).includes(query.q) ? query.q : undefined;
  const sessions = project
    ? await db().session.findMany({ where: { projectId: project.id }, orderBy: { lastActivityAt: "desc" }, select: { id: true, title: true, externalId: true } })
    : [];
  const sessionId = sessions.some((s) => s.id === query.session) ? query.session : undefined;
  const result =
    project && questionId
      ? await askEvidenceQuestion({ projectId: project.id, question: { canned: questionId }, scope: sessionId ? { sessionIds: [sessionId] } : {} })
      : null;
  const exportQuery = new URLSearchParams({ project: project?.slug ?? "", q: questionId ?? "", ...(sessionId ? { session: sessionId } : {}) }).toString();
  const sessionTitle = new Map(sessions.map((s) => [s.id, s.title ?? s.externalId]));

  return (
    <>
      <h1>Evidence</h1>
      <p className="subtitle">Ask what the agents did. YES cites verbatim bytes; NO only when the evidence is complete.</p>
      <form method="get" className="panel" style={{ display: "flex", gap: 12, alignItems: "end", flexWrap: "wrap" }}>
        <label>
          Project
          <br />
          <select name="project" defaultValue={project?.slug}>
            {projects.map((p) => (
              <option key={p.id} value={p.slug}>{p.slug}</option>
            ))}
          </select>
        </label>
        <label>
          Question
          <br />
          <select name="q" defaultValue={questionId ?? "modified-system-config"}>
            {CANNED_QUESTION_IDS.map((id) => (
              <option key={id} value={id}>{CANNED_QUESTIONS[id].title}</option>
            ))}
          </select>
        </label>
        <label>
          Scope
          <br />
          <select name="session" defaultValue={sessionId ?? ""}>
            <option value="">All sessions</option>
            {sessions.map((s) => (
              <option key={s.id} value={s.id}>{s.title ?? s.externalId}</option>
            ))}
          </select>
        </label>
        <button type="submit">Ask</button>
      </form>

      {result ? (
        <section aria-label="Answer">
          <h2>
            {result.question.title}{" "}
            <span className={`badge ${ANSWER_TONE[result.answer]}`} data-testid="answer">{result.answer.replace("_", " ")}</span>
          </h2>
          <p className="subtitle">
            {result.checkedSpans} spans checked in {result.sessionsInScope} sessions; scope {result.scopeComplete ? "complete" : "incomplete"}. Export:{" "}
            <a href={`/evidence/export?${exportQuery}&format=json`} download>JSON</a> ·{" "}
            <a href={`/evidence/export?${exportQuery}&format=csv`} download>CSV</a>
          </p>
          {result.citations.length > 0 ? (
            <table className="data" aria-label="Citations">
              <thead>
                <tr><th>Session</th><th className="num">Seq</th><th>Bytes</th><th>Excerpt</th><th>sha256</th></tr>
              </thead>
              <tbody>
                {result.citations.map((c) => (
                  <tr key={`${c.spanId}:${c.byteStart}`}>
                    <td><Link href={`/sessions/${c.sessionId}`}>{sessionTitle.get(c.sessionId)}</Link></td>
                    <td className="num">{c.seq}</td>
                    <td className="mono"><Link href={`/spans/${c.spanId}?from=${c.byteStart}&to=${c.byteEnd}#cited`}>{c.byteStart}–{c.byteEnd}</Link></td>
                    <td className="mono">{c.excerpt}</td>
                    <td className="mono">{c.sha256.slice(0, 12)}…</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {result.blockers.length > 0 ? (
            <>
              <h2>Blocking spans</h2>
              <table className="data" aria-label="Blockers">
                <thead>
                  <tr><th>Session</th><th className="num">Seq</th><th>Cell</th><th>Dropped</th><th>Original</th><th>Why</th></tr>
                </thead>
                <tbody>
                  {result.blockers.map((b) => (
                    <tr key={b.spanId}>
                      <td><Link href={`/sessions/${b.sessionId}`}>{sessionTitle.get(b.sessionId)}</Link></td>
                      <td className="num"><Link href={`/spans/${b.spanId}`}>{b.seq}</Link></td>
                      <td>{humanize(b.class)} × {humanize(b.provenance)}</td>
                      <td>{b.dropped.length > 0 ? formatKindCounts(b.dropped) : "not stated"}</td>
                      <td>{b.originalHeld ? `held (${b.unblockBy} to unblock)` : "gone"}</td>
                      <td>{b.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : null}
          {result.gaps.length > 0 ? (
            <p>Missing seqs: {result.gaps.map((g) => `${g.fromSeq}–${g.toSeq}`).join(", ")}.</p>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
