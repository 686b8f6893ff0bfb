/**
 * Omission manifests: what a summary keeps of a span, what it drops, whether it says so honestly
 * (docs/design.md, "The gate"), and how to write an honest one.
 */
import { prepareSummaryText, splitKeptDropped, type SummaryText } from "./summary-text";
import {
  ATOM_KINDS,
  type Atom,
  type AtomKind,
  type CandidateSummary,
  type OmissionManifest,
  type ProvenancePointer,
} from "./types";

export interface KindCount {
  kind: AtomKind;
  count: number;
}

export interface SummaryComparison {
  kept: Atom[];
  dropped: Atom[];
}

/**
 * Which of the span's atoms the summary text still contains, by exact text or normalised value
 * (ids case-insensitively; negations only with their phrase and everything they negate).
 */
export function compareSummary(spanAtoms: readonly Atom[], summaryText: string | SummaryText): SummaryComparison {
  const prepared = typeof summaryText === "string" ? prepareSummaryText(summaryText) : summaryText;
  return splitKeptDropped(spanAtoms, prepared);
}

/** Atoms counted per kind, in the vocabulary's kind order, kinds with no atoms left out. */
export function countByKind(atoms: readonly Atom[]): KindCount[] {
  const counts = new Map<AtomKind, number>();
  for (const a of atoms) counts.set(a.kind, (counts.get(a.kind) ?? 0) + 1);
  return ATOM_KINDS.filter((k) => counts.has(k)).map((kind) => ({ kind, count: counts.get(kind)! }));
}

/** How many atoms of each kind a manifest admits to dropping (repeated kinds add up). */
export function manifestCounts(manifest: OmissionManifest): Map<AtomKind, number> {
  const counts = new Map<AtomKind, number>();
  for (const o of manifest.omitted) {
    // A malformed count (negative, fractional, NaN) names nothing rather than more than it says.
    const n = Number.isFinite(o.count) ? Math.max(0, Math.floor(o.count)) : 0;
    counts.set(o.kind, (counts.get(o.kind) ?? 0) + n);
  }
  return counts;
}

export interface ManifestCheck {
  /** A manifest was supplied, it names every dropped atom, and the summary carries a pointer. */
  honest: boolean;
  hasManifest: boolean;
  hasPointer: boolean;
  /** Dropped atoms the manifest does not account for, per kind (the shortfall). */
  missing: KindCount[];
}

/**
 * Is a summary lossy-but-honest about these dropped atoms? The manifest must name every dropped
 * atom at least by kind and count, and the summary must carry a pointer to the original. A
 * summary without a manifest is never honest, even one that happens to drop nothing: it has not
 * said so, and the next summary of it will not either.
 */
export function checkManifest(
  dropped: readonly Atom[],
  manifest: OmissionManifest | null | undefined,
  hasPointer: boolean,
): ManifestCheck {
  return checkManifestCounts(dropped, manifest ? manifestCounts(manifest) : null, hasPointer);
}

/** `checkManifest` with the manifest already counted, so the gate counts it once per request. */
export function checkManifestCounts(
  dropped: readonly Atom[],
  named: ReadonlyMap<AtomKind, number> | null,
  hasPointer: boolean,
): ManifestCheck {
  const missing: KindCount[] = [];
  for (const { kind, count } of countByKind(dropped)) {
    const admitted = named?.get(kind) ?? 0;
    if (admitted < count) missing.push({ kind, count: count - admitted });
  }
  const hasManifest = named !== null;
  return { honest: hasManifest && hasPointer && missing.length === 0, hasManifest, hasPointer, missing };
}

export interface HonestSummaryOptions {
  /** Also list the normalised values of dropped atoms in the manifest (off: values may be large or sensitive). */
  includeValues?: boolean;
  /** Append the formatted manifest line to the text so the reader sees it too (default true). */
  appendManifestLine?: boolean;
}

/**
 * Turns a lossy text into a lossy-but-honest summary: the manifest names every atom the text
 * does not contain, and the summary carries pointers to the originals. By default the manifest
 * line is appended to the text, so a downstream agent reading only the text learns what is missing.
 */
export function makeHonestSummary(
  spanAtoms: readonly Atom[],
  text: string,
  pointer: ProvenancePointer | readonly ProvenancePointer[],
  options: HonestSummaryOptions = {},
): CandidateSummary {
  const pointers = Array.isArray(pointer) ? [...(pointer as readonly ProvenancePointer[])] : [pointer as ProvenancePointer];
  const { dropped } = compareSummary(spanAtoms, text);
  const omissions: OmissionManifest = {
    omitted: countByKind(dropped).map(({ kind, count }) =>
      options.includeValues
        ? { kind, count, values: dropped.filter((a) => a.kind === kind).map((a) => a.normalized) }
        : { kind, count },
    ),
  };
  const body = options.appendManifestLine === false ? text : `${text.trimEnd()}\n[${formatManifest(omissions, pointers)}]`;
  return { text: body, pointers, omissions };
}

const KIND_LABELS: Record<AtomKind, readonly [singular: string, plural: string]> = {
  PATH: ["path", "paths"],
  COMMAND: ["command", "commands"],
  TOOL_CALL: ["tool call", "tool calls"],
  TOOL_ARG: ["tool argument", "tool arguments"],
  NUMBER: ["number", "numbers"],
  IDENTIFIER: ["identifier", "identifiers"],
  TIMESTAMP: ["timestamp", "timestamps"],
  URL: ["URL", "URLs"],
  QUOTED: ["quoted string", "quoted strings"],
  NEGATION: ["negation", "negations"],
};

export function kindLabel(kind: AtomKind, count: number): string {
  const [one, many] = KIND_LABELS[kind];
  return count === 1 ? one : many;
}

/** "1 path, 2 tool arguments", in kind order; "nothing" for an empty list. */
export function formatKindCounts(counts: readonly KindCount[]): string {
  const merged = new Map<AtomKind, number>();
  for (const { kind, count } of counts) if (count > 0) merged.set(kind, (merged.get(kind) ?? 0) + count);
  const parts = ATOM_KINDS.filter((k) => merged.has(k)).map((k) => `${merged.get(k)} ${kindLabel(k, merged.get(k)!)}`);
  return parts.length === 0 ? "nothing" : parts.join(", ");
}

/** "<spanId>@<start>-<end> sha256:<first 12 hex>": short enough for a summary, enough to find the bytes. */
export function formatPointer(p: ProvenancePointer): string {
  return `${p.spanId}@${p.byteStart}-${p.byteEnd} sha256:${p.sha256.toLowerCase().slice(0, 12)}`;
}

/** "omitted: 1 path, 2 tool arguments; original: sp-42@0-55 sha256:3f1a…" */
export function formatManifest(manifest: OmissionManifest, pointers: readonly ProvenancePointer[]): string {
  const originals = pointers.length === 0 ? "none" : pointers.map(formatPointer).join(", ");
  return `omitted: ${formatKindCounts(manifest.omitted)}; original: ${originals}`;
}

export interface PointerRef {
  spanId: string;
  byteStart: number;
  byteEnd: number;
  /** The hash prefix as written; a full pointer needs the span's stored hash to confirm it. */
  sha256Prefix: string;
}

export interface ParsedManifestText {
  manifest: OmissionManifest;
  pointers: PointerRef[];
  /** Parts of the omitted list that could not be read; a manifest with any is not trustworthy. */
  unreadable: string[];
}

const LABEL_TO_KIND: ReadonlyMap<string, AtomKind> = new Map(
  ATOM_KINDS.flatMap((k) => KIND_LABELS[k].map((label) => [label.toLowerCase(), k] as const)),
);

const MANIFEST_LINE = /omitted:\s*([^;\n\]]*?)\s*(?:;\s*originals?:\s*([^\n\]]*))?\s*(?:\]|$)/gim;
const POINTER_REF = /^(.+)@(\d+)-(\d+)\s+sha256:([0-9a-f]{4,64})$/i;

/**
 * Reads a manifest written by `formatManifest` back out of a summary text, for runtimes that only
 * send text. Uses the last manifest line (a summary of summaries may quote earlier ones). Null
 * when the text has none.
 */
export function parseManifestText(text: string): ParsedManifestText | null {
  let last: RegExpExecArray | null = null;
  for (const m of text.matchAll(MANIFEST_LINE)) last = m as RegExpExecArray;
  if (last === null) return null;

  const omitted: OmissionManifest["omitted"] = [];
  const unreadable: string[] = [];
  const list = (last[1] ?? "").trim();
  if (list !== "" && list.toLowerCase() !== "nothing") {
    for (const part of list.split(",")) {
      const m = /^\s*(\d+)\s+(.+?)\s*$/.exec(part);
      const kind = m ? LABEL_TO_KIND.get(m[2]!.toLowerCase()) : undefined;
      if (m && kind) omitted.push({ kind, count: Number(m[1]) });
      else unreadable.push(part.trim());
    }
  }

  const pointers: PointerRef[] = [];
  const originals = (last[2] ?? "").trim();
  if (originals !== "" && originals.toLowerCase() !== "none") {
    for (const part of originals.split(",")) {
      const m = POINTER_REF.exec(part.trim());
      if (m) pointers.push({ spanId: m[1]!, byteStart: Number(m[2]), byteEnd: Number(m[3]), sha256Prefix: m[4]!.toLowerCase() });
      else unreadable.push(part.trim());
    }
  }
  return { manifest: { omitted }, pointers, unreadable };
}
