import Link from "next/link";
import type { ReactNode } from "react";
import type { ActionResult } from "@/lib/core/action-result";
import type { CitedBytes, UnblockAct } from "@/lib/evidence/questions";
import { formatKindCounts, type KindCount } from "@/lib/evidence/manifest";
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import { ActionForm } from "./ActionForm";
import { CallOutcome } from "./CallOutcome";
import { Code } from "./Code";
import { projectHref } from "./project-href";

/**
 * An evidence answer's citations and blocking spans as tables, for the Evidence page (a server
 * component) and a question job's answer (a client component): props only, no hooks. Transcript
 * text (excerpts, session titles, reasons) is rendered as text, never as HTML.
 */

/** Sessions' titles by id, as the page knows them; a session not in it shows its id's first 8 characters. */
export type SessionTitles = Readonly<Record<string, string>>;

export function sessionLabel(titles: SessionTitles, sessionId: string): string {
  return Object.hasOwn(titles, sessionId) ? titles[sessionId]! : sessionId.slice(0, 8);
}

/** A citation as an answer presents it. */
export interface CitationRow extends CitedBytes {
  outcome?: ToolOutcome | null;
  exitCode?: number | null;
}

/** A blocking span: where it is, its cell, and why it blocks. */
export interface BlockerRow {
  sessionId: string;
  spanId: string;
  seq: number;
  class: string;
  provenance: string;
  reason: string;
}

/** A blocking span as an answer has it, fresh or a job's: what its summary dropped, whether its original is held, what unblocks it. */
export interface BlockerFateRow extends BlockerRow {
  /** What the span's summary admitted dropping, by kind; empty when unknown or nothing. */
  dropped: readonly KindCount[];
  originalHeld: boolean;
  unblockBy: UnblockAct;
}

type Action = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/**
 * The form that pins a blocker's original through the pin server action (which checks the
 * caller's role itself), its reason naming the question; for a `pinForm` of `BlockerTable`.
 */
export function pinOriginalForm(pin: Action, questionTitle: string): (blocker: BlockerFateRow) => ReactNode {
  return (b) => (
    <ActionForm action={pin} label={`Pin span ${b.seq}`} inline>
      <input type="hidden" name="spanId" value={b.spanId} />
      <input type="hidden" name="reason" value={`evidence question: ${questionTitle}`} />
      <button type="submit" className="link-button">
        Pin original
      </button>
    </ActionForm>
  );
}

function SessionCell({ project, titles, sessionId }: { project: string; titles: SessionTitles; sessionId: string }) {
  return (
    <td className="name" data-label="Session">
      <Link href={projectHref(project, `/sessions/${sessionId}`)}>{sessionLabel(titles, sessionId)}</Link>
    </td>
  );
}

/** The cited bytes of each citation, linked to the span page that highlights them (`#citations`). */
export function CitationTable({
  citations,
  project,
  sessionTitles,
}: {
  /** The rows to show (a page of them, or a job's first ones). */
  citations: readonly CitationRow[];
  project: string;
  sessionTitles: SessionTitles;
}) {
  return (
    <table className="data stacked" aria-label="Citations" id="citations">
      <thead>
        <tr>
          <th>Session</th>
          <th className="num">Seq</th>
          <th>Bytes</th>
          <th>Excerpt</th>
          <th>Outcome</th>
          <th>sha256</th>
        </tr>
      </thead>
      <tbody>
        {citations.map((c) => (
          <tr key={`${c.spanId}:${c.byteStart}`}>
            <SessionCell project={project} titles={sessionTitles} sessionId={c.sessionId} />
            <td className="num" data-label="Seq">
              {c.seq}
            </td>
            <td className="mono short" data-label="Bytes">
              <Link href={projectHref(project, `/spans/${c.spanId}?from=${c.byteStart}&to=${c.byteEnd}#cited`)}>
                {c.byteStart}–{c.byteEnd}
              </Link>
            </td>
            <td className="mono below" data-label="Excerpt">
              {c.excerpt}
            </td>
            <td className="short" data-label="Outcome">
              <CallOutcome outcome={c.outcome} exitCode={c.exitCode} />
            </td>
            <td className="mono short" data-label="sha256">
              {c.sha256.slice(0, 12)}…
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface BlockerTableProps {
  project: string;
  sessionTitles: SessionTitles;
  /** An answer's blockers with what each summary dropped, whether its original is held, what unblocks it. */
  blockers: readonly BlockerFateRow[];
  /** The form that pins a blocker's original, when the viewer may pin; else the act is named for an operator. */
  pinForm: ((blocker: BlockerFateRow) => ReactNode) | null;
}

/** The spans that could have matched but cannot be checked, under a "Blocking spans" heading (`#blockers`). */
export function BlockerTable({ project, sessionTitles, blockers, pinForm }: BlockerTableProps) {
  return (
    <>
      <h2 id="blockers">Blocking spans</h2>
      <table className="data stacked" aria-label="Blockers">
        <thead>
          <tr>
            <th>Session</th>
            <th className="num">Seq</th>
            <th>Cell</th>
            <th>Dropped</th>
            <th>Original</th>
            <th>Why</th>
            <th>Unblock</th>
          </tr>
        </thead>
        <tbody>
          {blockers.map((b) => (
            <tr key={b.spanId}>
              <SessionCell project={project} titles={sessionTitles} sessionId={b.sessionId} />
              <td className="num" data-label="Seq">
                <Link href={projectHref(project, `/spans/${b.spanId}`)}>{b.seq}</Link>
              </td>
              <td className="short" data-label="Cell">
                <Code value={b.class} /> × <Code value={b.provenance} />
              </td>
              <td className="short" data-label="Dropped">
                {b.dropped.length > 0 ? formatKindCounts(b.dropped) : "not stated"}
              </td>
              <td className="short" data-label="Original">
                {b.originalHeld ? "held" : "gone"}
              </td>
              <td className="reason" data-label="Why">
                {b.reason}
              </td>
              <td className="below" data-label="Unblock">
                {b.unblockBy === "none" ? "not possible" : pinForm ? pinForm(b) : `${b.unblockBy} (operator)`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
