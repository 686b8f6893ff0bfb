/**
 * Verifying an export against the database it came from: the document's own hash, then each
 * citation against its stored original (still there, still the bytes that were hashed, the cited
 * range still the bytes the export carries). What an auditor runs before relying on a filed export.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, exportHash, type EvidenceExportDocument } from "./export-document";
import { checkExportSignature, type SignatureCheck } from "./export-signing";

export type CitationProblem =
  | "original deleted"
  | "original changed"
  | "cited bytes differ"
  | "not in the export's project"
  | "no cited bytes in the export";

export interface ExportVerification {
  /** The document's hash as written in it, and as computed over its content. */
  exportSha256: { stated: string; computed: string; ok: boolean };
  /** Whether it carries this instance's signature over exactly its content. */
  signature: SignatureCheck;
  /** Whether the instance's audit log records this export (by its hash, in its project). */
  audited: boolean;
  citations: number;
  /** Citations that no longer verify, in the document's order (index into its citations). */
  failures: Array<{ index: number; sessionId: string; spanId: string; problems: CitationProblem[] }>;
  ok: boolean;
}

const uuid = z.string().refine(isUuid, "not a UUID");
const sha = z.string().regex(/^[0-9a-f]{64}$/, "not a lowercase hex SHA-256");
const offset = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1);

/** What verification reads of a document; the rest only counts through the hash. */
const ExportShape = z.looseObject({
  format: z.literal(EXPORT_FORMAT),
  // Version 1 documents (unsigned) are read, and fail verification for want of a signature.
  formatVersion: z.union([z.literal(1), z.literal(EXPORT_FORMAT_VERSION)]),
  project: z.looseObject({ id: uuid }),
  citations: z.array(
    z.looseObject({
      sessionId: uuid,
      spanId: uuid,
      byteStart: offset,
      byteEnd: offset,
      sha256: sha,
      citedSha256: sha.nullable(),
      bytesBase64: z.string().nullable(),
    }),
  ),
  exportSha256: sha,
});

/**
 * An export file's text as a document. Not JSON, or not an export of a format version this
 * Custodian knows: an AppError (INVALID_JSON, UNSUPPORTED_FORMAT) naming the field at fault.
 */
export function parseExportDocument(text: string): EvidenceExportDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("INVALID_JSON", "The file is not JSON");
  }
  const parsed = ExportShape.safeParse(value);
  if (!parsed.success) {
    throw new AppError("UNSUPPORTED_FORMAT", `The file is not a ${EXPORT_FORMAT} version ${EXPORT_FORMAT_VERSION} document`, {
      fields: parsed.error.issues.slice(0, 5).map((i) => ({ path: i.path.join("."), message: i.message })),
    });
  }
  return value as EvidenceExportDocument;
}

/** Citations checked per statement: their cited ranges are all the memory a batch takes. */
const VERIFY_BATCH = 1000;

interface OriginalRow {
  i: number;
  /** Null when the session is gone. */
  project_id: string | null;
  /** Null when no bytes are stored (never were, or swept). */
  sha256: string | null;
  cited: string | null;
}

/** Checks a parsed export's hash and every citation against the stored originals. */
export async function verifyExport(document: EvidenceExportDocument): Promise<ExportVerification> {
  const computed = exportHash(document);
  const failures: ExportVerification["failures"] = [];
  const citations = document.citations;
  for (let start = 0; start < citations.length; start += VERIFY_BATCH) {
    const batch = citations.slice(start, start + VERIFY_BATCH);
    // The hash of the whole original and the cited range, computed where the bytes are: only the
    // cited ranges travel.
    const rows = await db().$queryRaw<OriginalRow[]>`
      select k.i, s.project_id::text as project_id,
             case when o.deleted_at is null and o.bytes is not null then encode(sha256(o.bytes), 'hex') end as sha256,
             case when o.deleted_at is null and o.bytes is not null
                  then encode(substring(o.bytes from k.byte_start + 1 for greatest(k.byte_end - k.byte_start, 0)), 'hex') end as cited
        from unnest(${batch.map((_, j) => start + j)}::int[], ${batch.map((c) => c.sessionId)}::uuid[],
                    ${batch.map((c) => c.spanId)}::uuid[], ${batch.map((c) => c.byteStart)}::int[],
                    ${batch.map((c) => c.byteEnd)}::int[]) as k(i, session_id, span_id, byte_start, byte_end)
        left join session s on s.id = k.session_id
        left join span_original o on o.session_id = k.session_id and o.span_id = k.span_id`;
    rows.sort((a, b) => a.i - b.i);
    for (const row of rows) {
      const c = citations[row.i]!;
      const problems = citationProblems(c, row, document.project.id);
      if (problems.length > 0) failures.push({ index: row.i, sessionId: c.sessionId, spanId: c.spanId, problems });
    }
  }
  const hashOk = computed === document.exportSha256;
  const signature = checkExportSignature(document);
  const audited =
    (await db().auditLog.count({
      where: {
        act: "evidence.export",
        targetId: document.project.id,
        after: { path: ["exportSha256"], equals: document.exportSha256 },
      },
    })) > 0;
  return {
    exportSha256: { stated: document.exportSha256, computed, ok: hashOk },
    signature,
    audited,
    citations: citations.length,
    failures,
    ok: hashOk && signature === "valid" && audited && failures.length === 0,
  };
}

function citationProblems(
  c: EvidenceExportDocument["citations"][number],
  row: OriginalRow,
  projectId: string,
): CitationProblem[] {
  if (row.project_id !== null && row.project_id !== projectId) return ["not in the export's project"];
  if (row.sha256 === null || row.cited === null) return ["original deleted"];
  const problems: CitationProblem[] = [];
  if (row.sha256 !== c.sha256) problems.push("original changed");
  if (c.citedSha256 === null || c.bytesBase64 === null) {
    problems.push("no cited bytes in the export");
    return problems;
  }
  const cited = Buffer.from(row.cited, "hex");
  const carried = Buffer.from(c.bytesBase64, "base64");
  const citedSha = createHash("sha256").update(cited).digest("hex");
  if (citedSha !== c.citedSha256 || !cited.equals(carried) || c.byteEnd - c.byteStart !== cited.length) {
    problems.push("cited bytes differ");
  }
  return problems;
}

const SIGNATURE_WORDS: Readonly<Record<Exclude<SignatureCheck, "valid">, string>> = {
  missing: "missing: the document is not signed (written before exports were signed, or the signature was removed)",
  invalid: "invalid: the document was changed after this instance signed it",
  "another key": "by another key: not this instance's (see its public key on the Evidence page)",
};

/** The report as lines for a terminal: one per failing signal and citation, then a summary. */
export function describeExportVerification(report: ExportVerification): string[] {
  const lines: string[] = [];
  if (!report.exportSha256.ok) {
    lines.push(
      `export hash differs: the document states ${report.exportSha256.stated} but its content hashes to ${report.exportSha256.computed} (edited after export)`,
    );
  }
  if (report.signature !== "valid") lines.push(`signature ${SIGNATURE_WORDS[report.signature]}`);
  if (!report.audited) lines.push("no export with this hash is recorded in this instance's audit log");
  for (const f of report.failures) {
    lines.push(`citation ${f.index + 1}: span ${f.spanId} (session ${f.sessionId}): ${f.problems.join(", ")}`);
  }
  const verified = report.citations - report.failures.length;
  lines.push(
    `${report.ok ? "Verified" : "NOT verified"}: export hash ${report.exportSha256.ok ? "ok" : "differs"}; ` +
      `signature ${report.signature === "valid" ? "by this instance" : report.signature}; ` +
      `${report.audited ? "recorded in the audit log" : "not in the audit log"}; ` +
      `${verified} of ${report.citations} citation${report.citations === 1 ? "" : "s"} verify against the stored originals` +
      `${report.failures.length > 0 ? `, ${report.failures.length} ${report.failures.length === 1 ? "does" : "do"} not` : ""}.`,
  );
  return lines;
}
