/**
 * Exporting an answer: asked afresh with every citation and blocker, under the policy in force,
 * made into the sealed export document, and audited (who, which question and scope, as what, and
 * the export's hash) before a byte of it leaves.
 */
import { AppError } from "@/lib/core/errors";
import { recordAudit } from "@/lib/server/audit";
import { currentPolicy } from "@/lib/server/retention";
import { askEvidenceQuestion, type EvidenceQueryInput, type EvidenceQueryResult } from "./ask";
import { signExport } from "./export-signing";
import { buildExportDocument, type EvidenceExportDocument } from "./export-document";

export type ExportFormat = "json" | "csv" | "print";

export interface ExportRequest {
  input: EvidenceQueryInput;
  project: { id: string; slug: string; name: string };
  askedBy: { id: string; email: string };
  format: ExportFormat;
}

export interface EvidenceExport {
  document: EvidenceExportDocument;
  /** The answer the document was made from, every citation and blocker in it (the CSV's rows). */
  result: EvidenceQueryResult;
}

export async function exportEvidence(request: ExportRequest, now = new Date()): Promise<EvidenceExport> {
  const { input, project, askedBy } = request;
  // The caller checked membership of this project: the question must not reach another one.
  if (input.projectId !== project.id) throw new AppError("NOT_FOUND", "Project not found");
  const [policy, result] = await Promise.all([
    currentPolicy(project.id),
    // No window: an export carries every citation and blocker; stored verdicts (cut at the
    // window) are neither read nor kept, so every citation carries its bytes cut afresh.
    askEvidenceQuestion(input, now, { window: Number.POSITIVE_INFINITY }),
  ]);
  const unsigned = buildExportDocument(result, {
    project,
    askedBy,
    askedAt: now,
    scope: input.scope ?? {},
    policy: { version: policy.version, policy: policy.policy },
  });
  const document = { ...unsigned, signature: signExport(unsigned) };
  // Who took which evidence out, before it leaves: an export the log cannot record is not sent.
  await recordAudit({
    projectId: project.id,
    actor: { type: "USER", id: askedBy.id, label: askedBy.email },
    act: "evidence.export",
    targetType: "project",
    targetId: project.id,
    after: {
      question: { id: result.question.id, title: result.question.title, anyOf: result.question.anyOf },
      scope: input.scope ?? {},
      format: request.format,
      answer: result.answer,
      citations: result.citationCount,
      exportSha256: document.exportSha256,
    },
  });
  return { document, result };
}
