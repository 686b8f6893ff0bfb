import { afterResponse } from "@/app/after-response";
import { EvidenceAnswerHeading, NoSpansInScopeNote } from "@/components/EvidenceAnswerHeading";
import { CompletenessCaseList } from "@/components/CompletenessCaseList";
import {
  BlockerTable,
  CitationTable,
  pinOriginalForm,
  type SessionTitles,
  sessionLabel,
} from "@/components/EvidenceAnswerTables";
import { RangeSelect } from "@/components/RangeSelect";
import { SkippedRecords } from "@/components/SkippedRecords";
import { checkedTally, countOf, humanize } from "@/components/format";
import { Pager, pageWindow } from "@/components/Pager";
import { AppError } from "@/lib/core/errors";
import { can } from "@/lib/core/permissions";
import { requireMember } from "@/lib/auth/project-access";
import { projectHref } from "@/components/project-href";
import { OUTCOME_LABELS, TOOL_OUTCOMES } from "@/lib/evidence/outcomes";
import { CANNED_QUESTION_IDS, CANNED_QUESTIONS } from "@/lib/evidence/questions";
import { ATOM_KINDS, SIDE_EFFECT_KINDS } from "@/lib/evidence/types";
import { evidencePicker } from "@/lib/server/dashboard";
import {
  answerEvidencePage,
  EVIDENCE_PAGE_ROWS,
  type EvidenceAnswerJson,
  evidencePageWindows,
  LIST_REACH,
  type QuestionJobJson,
} from "@/lib/server/questions";
import { QuestionJobProgress } from "@/components/QuestionJobProgress";
import { instancePublicKey, listSavedQuestions, SAVED_PREFIX } from "@/lib/server/questions";
import { SavedQuestions } from "@/components/SavedQuestions";
import { pinAction } from "../spans/[id]/actions";
import { deleteSavedQuestionAction, saveQuestionAction } from "./actions";

export const metadata = { title: "Evidence" };

/** Skipped records listed with an answer (the export has them all). */
const SKIPPED_SHOWN = 100;

export default async function EvidencePage({
  params: routeParams,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { project, role, actor } = await requireMember((await routeParams).slug);
  const raw = await searchParams;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(raw)) for (const v of [value].flat()) if (v !== undefined) params.append(key, v);

  // The project is the URL's; a "project" parameter left over from an old link is ignored.
  params.delete("project");
  const [{ sessions }, saved] = await Promise.all([evidencePicker(project.id), listSavedQuestions(project.id)]);
  const sessionTitles: SessionTitles = Object.fromEntries(sessions.map((s) => [s.id, s.title ?? s.externalId]));
  const q = params.get("q") ?? "";

  let result: EvidenceAnswerJson | null = null;
  let job: QuestionJobJson | null = null;
  let problem: string | null = null;
  try {
    // The answer comes with just the page of each list the URL names (cpage, bpage).
    const asked = await answerEvidencePage(project.id, params, actor.label, { keepVerdicts: afterResponse });
    if (asked && "answer" in asked) result = asked.answer;
    else if (asked) job = asked.job;
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    problem = `${error.message}${error.fields ? `: ${error.fields.map((f) => `${f.path} ${f.message}`).join("; ")}` : ""}`;
  }
  const exportParams = new URLSearchParams(params);
  exportParams.delete("cpage");
  exportParams.delete("bpage");
  // Rows past LIST_REACH are counted, never listed: the pager stops there (the export has them all).
  const listed = (count: number) => Math.min(count, LIST_REACH);
  const windows = evidencePageWindows(params);
  const pageNumber = (offset: number) => offset / EVIDENCE_PAGE_ROWS + 1;
  const citationPage = pageWindow(listed(result?.citationCount ?? 0), pageNumber(windows.citations.offset), EVIDENCE_PAGE_ROWS);
  const blockerPage = pageWindow(listed(result?.blockerCount ?? 0), pageNumber(windows.blockers.offset), EVIDENCE_PAGE_ROWS);
  /** This answer with another page of one of its lists. */
  const pageHref = (list: "cpage" | "bpage", anchor: string) => (n: number) => {
    const next = new URLSearchParams(params);
    if (n > 1) next.set(list, String(n));
    else next.delete(list);
    return projectHref(project.slug, `/evidence?${next}#${anchor}`);
  };
  const canPin = can(role, "originals:pin");
  const pin = pinAction.bind(null, project.slug);
  const at = (path: string) => projectHref(project.slug, path);

  return (
    <>
      <h1>Evidence</h1>
      <p className="subtitle">Ask what the agents did. YES cites verbatim bytes; NO only when the evidence is complete.</p>
      <form method="get" className="panel" style={{ display: "grid", gap: 12 }} aria-label="Ask a question">
        <div style={{ display: "flex", gap: 12, alignItems: "end", flexWrap: "wrap" }}>
          <label>
            Question
            <br />
            <select name="q" defaultValue={q || "modified-system-config"}>
              {CANNED_QUESTION_IDS.map((id) => (
                <option key={id} value={id}>
                  {CANNED_QUESTIONS[id].title}
                </option>
              ))}
              {saved.map((question) => (
                <option key={question.id} value={`${SAVED_PREFIX}${question.id}`}>
                  Saved: {question.title}
                </option>
              ))}
              <option value="custom">Custom (use the builder below)</option>
            </select>
          </label>
          <label>
            Scope
            <br />
            <select name="session" defaultValue={params.get("session") ?? ""}>
              <option value="">All sessions</option>
              {sessions.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.title ?? s.externalId}
                </option>
              ))}
            </select>
          </label>
          <RangeSelect value={params.get("range") ?? undefined} />
          <label>
            From
            <br />
            <input type="date" name="from" defaultValue={params.get("from") ?? ""} />
          </label>
          <label>
            To
            <br />
            <input type="date" name="to" defaultValue={params.get("to") ?? ""} />
          </label>
          <button type="submit" className="button">
            Ask
          </button>
        </div>
        <details open={q === "custom"}>
          <summary>Question builder</summary>
          <div style={{ display: "flex", gap: 12, alignItems: "start", flexWrap: "wrap", marginTop: 8 }}>
            <label>
              Side effect
              <br />
              <select name="effect" multiple size={5} defaultValue={params.getAll("effect")}>
                {SIDE_EFFECT_KINDS.map((e) => (
                  <option key={e} value={e}>
                    {humanize(e)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Atom kind
              <br />
              <select name="kind" multiple size={5} defaultValue={params.getAll("kind")}>
                {ATOM_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {humanize(k)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Value prefixes (one per line)
              <br />
              <textarea
                name="prefix"
                rows={4}
                cols={24}
                defaultValue={params.getAll("prefix").join("\n")}
                placeholder={"/etc/\n~/.ssh/"}
              />
            </label>
            <label>
              Tool names
              <br />
              <input name="tool" defaultValue={params.get("tool") ?? ""} placeholder="write_file, Bash" />
            </label>
            <label>
              Command pattern (regex)
              <br />
              <input name="command" defaultValue={params.get("command") ?? ""} placeholder="\bcurl\b.*-X\s*POST" />
            </label>
            <fieldset style={{ border: "none", padding: 0, margin: 0 }}>
              <legend>Call outcome (any when none is ticked)</legend>
              {TOOL_OUTCOMES.map((o) => (
                <label key={o} title={`Outcome ${o}`} style={{ display: "block" }}>
                  <input type="checkbox" name="outcome" value={o} defaultChecked={params.getAll("outcome").includes(o)} />{" "}
                  {OUTCOME_LABELS[o]}
                </label>
              ))}
            </fieldset>
            <label>
              <input type="checkbox" name="negated" defaultChecked={params.get("negated") === "on"} /> count negated mentions
            </label>
          </div>
        </details>
      </form>

      {problem ? (
        <p role="alert" className="error-text">
          {problem}
        </p>
      ) : null}
      <SavedQuestions
        saved={saved}
        askHref={(id) => {
          const next = new URLSearchParams(exportParams);
          next.set("q", `${SAVED_PREFIX}${id}`);
          return at(`/evidence?${next}`);
        }}
        canWrite={can(role, "questions:write")}
        customQuery={q === "custom" && (result || job) ? exportParams.toString() : null}
        save={saveQuestionAction.bind(null, project.slug)}
        remove={deleteSavedQuestionAction.bind(null, project.slug)}
      />
      {job ? (
        <QuestionJobProgress project={project.slug} initial={job} sessionTitles={sessionTitles} pin={canPin ? pin : null} />
      ) : null}
      {result ? (
        <section aria-label="Answer">
          <EvidenceAnswerHeading title={result.question.title} answer={result.answer} />
          <p className="subtitle">
            {countOf(result.citationCount, "citation")}, {countOf(result.blockerCount, "blocking span")};{" "}
            {checkedTally(result.checkedSpans, result.sessionsInScope)}; scope {result.scopeComplete ? "complete" : "incomplete"}.
            Export:{" "}
            <a href={at(`/evidence/export?${exportParams}&format=json`)} download>
              JSON
            </a>{" "}
            ·{" "}
            <a href={at(`/evidence/export?${exportParams}&format=csv`)} download>
              CSV
            </a>{" "}
            · <a href={at(`/evidence/export/print?${exportParams}`)}>Printable</a>
          </p>
          <ExportKeyNote />
          {Object.keys(result.outcomes).length > 0 ? (
            <p data-testid="attempts">
              <strong>{result.outcomeSummary}</strong>
            </p>
          ) : null}
          <NoSpansInScopeNote answer={result.answer} noSpansInScope={result.noSpansInScope} />
          {result.answer === "YES" ? null : <CompletenessCaseList completeness={result.completeness} />}
          {result.citationCount > 0 ? (
            <>
              <CitationTable citations={result.citations} project={project.slug} sessionTitles={sessionTitles} />
              <Pager label="Citation pages" noun="Citations" window={citationPage} hrefFor={pageHref("cpage", "citations")} />
            </>
          ) : null}
          {result.blockerCount > 0 ? (
            <>
              <BlockerTable
                blockers={result.blockers}
                project={project.slug}
                sessionTitles={sessionTitles}
                pinForm={canPin ? pinOriginalForm(pin, result.question.title) : null}
              />
              <Pager
                label="Blocking span pages"
                noun="Blocking spans"
                window={blockerPage}
                hrefFor={pageHref("bpage", "blockers")}
              />
            </>
          ) : null}
          {result.gaps.length > 0 ? <p>Missing seqs: {result.gaps.map((g) => `${g.fromSeq}–${g.toSeq}`).join(", ")}.</p> : null}
          <SkippedRecords
            project={project.slug}
            records={result.skippedRecords.slice(0, SKIPPED_SHOWN).map((r) => ({
              line: r.line,
              reason: r.reason,
              session: { id: r.sessionId, title: sessionLabel(sessionTitles, r.sessionId) },
            }))}
            total={result.skippedRecords.length}
            scope="the sessions they belong to"
            source="their sessions' imports"
          />
        </section>
      ) : null}
    </>
  );
}

/**
 * The public half of the key that signs this instance's exports: what an auditor compares with the
 * one an export carries (`custodian verify-export` checks it on the instance itself).
 */
function ExportKeyNote() {
  const key = instancePublicKey();
  return (
    <details className="export-key">
      <summary>
        Exports are signed by this instance: key <code>{key.keyId}</code>
      </summary>
      <p>
        Ed25519 public key (SPKI, base64): <code className="break-anywhere">{key.publicKey}</code>
      </p>
    </details>
  );
}
