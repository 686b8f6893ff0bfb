import { describeOutcomes } from "@/lib/evidence/outcomes";
import type { Citation } from "@/lib/evidence/questions";
import type { EvidenceQueryResult } from "./ask";
import type { EvidenceExportDocument } from "./export-document";

/** A citation as JSON, for the API and the download alike: the cited bytes travel as base64. */
export function citationJson(c: Citation) {
  return {
    sessionId: c.sessionId,
    spanId: c.spanId,
    seq: c.seq,
    byteStart: c.byteStart,
    byteEnd: c.byteEnd,
    sha256: c.sha256,
    excerpt: c.excerpt,
    bytesBase64: Buffer.from(c.bytes ?? new TextEncoder().encode(c.excerpt)).toString("base64"),
    atomKind: c.atomKind,
    ...(c.spanKind !== undefined ? { spanKind: c.spanKind } : {}),
    outcome: c.outcome ?? null,
    exitCode: c.exitCode ?? null,
  };
}

/** An answer with its citations and blockers as JSON. */
export function answerAsJson(result: EvidenceQueryResult) {
  return {
    question: { id: result.question.id, title: result.question.title, anyOf: result.question.anyOf },
    answer: result.answer,
    scopeComplete: result.scopeComplete,
    checkedSpans: result.checkedSpans,
    sessionsInScope: result.sessionsInScope,
    citations: result.citations.map(citationJson),
    blockers: result.blockers,
    gaps: result.gaps,
    skippedRecords: result.skippedRecords,
    noSpansInScope: result.noSpansInScope,
    completeness: result.completeness,
    outcomes: result.outcomes,
    outcomeSummary: describeOutcomes(result.outcomes),
  };
}

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  // Quote always; a leading formula character is neutralised so a spreadsheet never evaluates transcript text.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/**
 * One row per citation, per blocker and per skipped record, for reviewers who work in spreadsheets.
 * Every row repeats the answer, the question, the tally of attempts the citations make and whether
 * the scope held no spans at all; a citation row carries its span's kind and its call's outcome and
 * exit code; a skipped record row its session, line and reason.
 */
export function answerAsCsv(result: EvidenceQueryResult): string {
  const header = [
    "row",
    "answer",
    "question",
    "session_id",
    "span_id",
    "seq",
    "byte_start",
    "byte_end",
    "sha256",
    "excerpt",
    "blocker_reason",
    "span_kind",
    "outcome",
    "exit_code",
    "skipped_line",
    "skipped_reason",
    "attempts",
    "no_spans_in_scope",
  ];
  const attempts = Object.keys(result.outcomes).length > 0 ? describeOutcomes(result.outcomes) : "";
  const answerCells = (row: string) => [row, result.answer, result.question.title];
  const tail = [attempts, result.noSpansInScope];
  const rows: unknown[][] = [
    ...result.citations.map((c) => [
      ...answerCells("citation"),
      c.sessionId,
      c.spanId,
      c.seq,
      c.byteStart,
      c.byteEnd,
      c.sha256,
      c.excerpt,
      "",
      c.spanKind ?? "",
      c.outcome ?? "",
      c.exitCode ?? "",
      "",
      "",
      ...tail,
    ]),
    ...result.blockers.map((b) => [
      ...answerCells("blocker"),
      b.sessionId,
      b.spanId,
      b.seq,
      "",
      "",
      "",
      "",
      b.reason,
      "",
      "",
      "",
      "",
      "",
      ...tail,
    ]),
    ...result.skippedRecords.map((r) => [
      ...answerCells("skipped_record"),
      r.sessionId,
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      r.line,
      r.reason,
      ...tail,
    ]),
  ];
  if (rows.length === 0) rows.push([...answerCells("answer"), ...header.slice(3, -2).map(() => ""), ...tail]);
  return `${[header, ...rows].map((r) => r.map(csvCell).join(",")).join("\r\n")}\r\n`;
}

/**
 * The CSV download of an export: the document's facts (who, when, which project, question, scope,
 * policy and Custodian version, the JSON export's hash) as two-cell rows, a blank line, then the
 * table answerAsCsv writes. The hash names the JSON document of the same answer, which the audit
 * row records: the CSV itself is for reading, the JSON for verifying.
 */
export function exportAsCsv(
  document: Pick<
    EvidenceExportDocument,
    "format" | "custodianVersion" | "project" | "askedBy" | "askedAt" | "question" | "scope" | "policy" | "exportSha256"
  >,
  result: EvidenceQueryResult,
): string {
  const meta: Array<[string, unknown]> = [
    ["format", `${document.format} (csv)`],
    ["custodian_version", document.custodianVersion],
    ["project", `${document.project.name} (${document.project.slug}, ${document.project.id})`],
    ["asked_by", document.askedBy.email],
    ["asked_at", document.askedAt],
    ["question", document.question.title],
    ["question_in_words", document.question.inWords],
    ["scope", document.scope.inWords],
    ["policy_version", document.policy.version],
    ["json_export_sha256", document.exportSha256],
    // The completeness case: what a NO rests on, each condition met or what blocks it.
    ["completeness_case", result.completeness.holds ? "every condition holds" : "not met"],
    ...result.completeness.conditions.map((c): [string, unknown] => [
      `completeness_${c.id}`,
      `${c.holds ? "holds" : `fails: ${c.blockedBy}`}: ${c.statement}`,
    ]),
  ];
  return `${meta.map((r) => r.map(csvCell).join(",")).join("\r\n")}\r\n\r\n${answerAsCsv(result)}`;
}
