/**
 * The export an auditor files: one self-describing JSON document per answer, saying who asked
 * what, when, of which project, over which scope, under which policy and Custodian version, the
 * answer with every citation and blocker (not a window of them), each citation with the sha256 of
 * its span's original and of the cited bytes, and a sha256 over the whole document
 * (export-canonical.ts) that `custodian verify-export` checks together with the stored originals.
 * Pure: built from an answer and its context; the use case signs it (export-signing.ts).
 */
import { createHash } from "node:crypto";
import { describeOutcomes } from "@/lib/evidence/outcomes";
import type {
  Blocker,
  Citation,
  CompletenessCase,
  EvidencePredicate,
  SeqGap,
  SkippedRecordRef,
  UnblockAct,
} from "@/lib/evidence/questions";
import type { RetentionPolicy } from "@/lib/evidence/types";
import packageJson from "@/package.json";
import type { EvidenceQueryResult } from "./ask";
import { canonicalChunks, canonicalSha256 } from "./export-canonical";
import type { ExportSignature } from "./export-signing";
import { questionInWords, scopeInWords } from "./export-words";

export const EXPORT_FORMAT = "custodian-evidence-export";
/** 2: signed with the instance's key (export-signing.ts). Version 1 documents carry no signature. */
export const EXPORT_FORMAT_VERSION = 2;
/** The version of Custodian that wrote an export, read once from package.json. */
export const CUSTODIAN_VERSION: string = packageJson.version;

export interface ExportCitation {
  sessionId: string;
  spanId: string;
  seq: number;
  /** The cited range of the original's bytes, end exclusive. */
  byteStart: number;
  byteEnd: number;
  /** SHA-256 of the span's whole original, as stored. */
  sha256: string;
  /** SHA-256 of exactly the cited bytes, and the bytes themselves; null when no original was there to cut them from. */
  citedSha256: string | null;
  bytesBase64: string | null;
  excerpt: string;
  atomKind: string;
  spanKind: string | null;
  outcome: string | null;
  exitCode: number | null;
}

export interface ExportBlocker extends Omit<Blocker, "unblockBy"> {
  unblockBy: UnblockAct;
  /** The act that unblocks it, in words. */
  unblock: string;
}

export interface EvidenceExportDocument {
  format: typeof EXPORT_FORMAT;
  formatVersion: typeof EXPORT_FORMAT_VERSION;
  custodianVersion: string;
  project: { id: string; slug: string; name: string };
  askedBy: { id: string; email: string };
  askedAt: string;
  question: { id: string; title: string; inWords: string; predicates: EvidencePredicate[] };
  /** sessions: null for every session of the project; from inclusive, to exclusive, null when open. */
  scope: { sessions: string[] | null; from: string | null; to: string | null; inWords: string };
  policy: { version: number } & RetentionPolicy;
  answer: {
    answer: EvidenceQueryResult["answer"];
    scopeComplete: boolean;
    noSpansInScope: boolean;
    checkedSpans: number;
    sessionsInScope: number;
    citationCount: number;
    blockerCount: number;
    blockers: ExportBlocker[];
    gaps: SeqGap[];
    skippedRecords: SkippedRecordRef[];
    /** Each condition a NO rests on, whether it holds, what blocks it. */
    completeness: CompletenessCase;
    outcomes: EvidenceQueryResult["outcomes"];
    outcomeSummary: string;
  };
  citations: ExportCitation[];
  exportSha256: string;
  /** The instance's signature over everything above: every export Custodian serves carries it (export-answer.ts). */
  signature?: ExportSignature;
}

export interface ExportContext {
  project: { id: string; slug: string; name: string };
  askedBy: { id: string; email: string };
  askedAt: Date;
  scope: { sessionIds?: string[]; from?: Date; to?: Date };
  policy: { version: number; policy: RetentionPolicy };
}

const UNBLOCK_WORDS: Readonly<Record<UnblockAct, string>> = {
  pin: "Pin the original: its bytes are still held, and a pin keeps them while the review runs.",
  extend: "Extend the original's retention: its bytes are still held.",
  none: "Nothing Custodian holds can unblock it: the original's bytes are gone.",
};

const sha256Hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export function exportCitation(c: Citation): ExportCitation {
  return {
    sessionId: c.sessionId,
    spanId: c.spanId,
    seq: c.seq,
    byteStart: c.byteStart,
    byteEnd: c.byteEnd,
    sha256: c.sha256,
    citedSha256: c.bytes ? sha256Hex(c.bytes) : null,
    bytesBase64: c.bytes ? Buffer.from(c.bytes).toString("base64") : null,
    excerpt: c.excerpt,
    atomKind: c.atomKind,
    spanKind: c.spanKind ?? null,
    outcome: c.outcome ?? null,
    exitCode: c.exitCode ?? null,
  };
}

export function exportBlocker(b: Blocker): ExportBlocker {
  return { ...b, unblock: UNBLOCK_WORDS[b.unblockBy] };
}

/**
 * The document for an answer, sealed with its hash. The answer must carry every citation and
 * blocker (asked with an unbounded window): an export that silently dropped some would not be one
 * an auditor could file, so a cut answer is refused.
 */
export function buildExportDocument(result: EvidenceQueryResult, context: ExportContext): EvidenceExportDocument {
  if (result.citations.length !== result.citationCount || result.blockers.length !== result.blockerCount) {
    throw new Error("An export needs every citation and blocker of the answer, not the first ones");
  }
  const { scope } = context;
  const body: Omit<EvidenceExportDocument, "exportSha256" | "signature"> = {
    format: EXPORT_FORMAT,
    formatVersion: EXPORT_FORMAT_VERSION,
    custodianVersion: CUSTODIAN_VERSION,
    project: { id: context.project.id, slug: context.project.slug, name: context.project.name },
    askedBy: { id: context.askedBy.id, email: context.askedBy.email },
    askedAt: context.askedAt.toISOString(),
    question: {
      id: result.question.id,
      title: result.question.title,
      inWords: questionInWords(result.question),
      predicates: result.question.anyOf,
    },
    scope: {
      sessions: scope.sessionIds ?? null,
      from: scope.from?.toISOString() ?? null,
      to: scope.to?.toISOString() ?? null,
      inWords: scopeInWords(context.project.name, scope),
    },
    policy: { ...context.policy.policy, version: context.policy.version },
    answer: {
      answer: result.answer,
      scopeComplete: result.scopeComplete,
      noSpansInScope: result.noSpansInScope,
      checkedSpans: result.checkedSpans,
      sessionsInScope: result.sessionsInScope,
      citationCount: result.citationCount,
      blockerCount: result.blockerCount,
      blockers: result.blockers.map(exportBlocker),
      gaps: result.gaps,
      skippedRecords: result.skippedRecords,
      completeness: result.completeness,
      outcomes: result.outcomes,
      outcomeSummary: describeOutcomes(result.outcomes),
    },
    citations: result.citations.map(exportCitation),
  };
  return { ...body, exportSha256: exportHash(body) };
}

/** The hash a document carries: over its canonical form without the exportSha256 and signature members. */
export function exportHash(document: object): string {
  const { exportSha256: _, signature: __, ...body } = document as { exportSha256?: unknown; signature?: unknown };
  return canonicalSha256(body);
}

/**
 * The document as a download: its canonical text (exportSha256 in its sorted place), written a
 * few tens of kilobytes at a time as the client reads, never as one string.
 */
export function exportStream(document: EvidenceExportDocument): ReadableStream<Uint8Array> {
  const chunks = canonicalChunks(document);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let text = "";
      for (let next = chunks.next(); ; next = chunks.next()) {
        if (next.done) {
          if (text) controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        text += next.value;
        if (text.length >= 64 * 1024) break;
      }
      controller.enqueue(encoder.encode(text));
    },
  });
}
