/**
 * Engine benchmark (`npm run bench:engine`): one core, in-memory corpus of realistic spans.
 *
 * 1. Extraction + classification: analyzeSpan over every span, after a warm-up on a separate
 *    smaller corpus (steady-state JIT); best and median of several passes, in MB/s of body bytes.
 * 2. Gate decisions per second: `decide` (one span, no candidate summary: the compactor's hot
 *    path) and `evaluateGate` with a candidate summary (honesty judged per span).
 * 3. ripgrep over the same bytes written to a temporary file, with a comparable alternation of
 *    path, uuid and number-with-unit patterns (`rg -c -j1 -e ... -e ... -e ...`), as a yardstick:
 *    the engine's MB/s over rg's. rg only counts matching lines; the engine also normalises every
 *    atom, finds negations, analyses shell commands and classifies.
 *
 * Timing lives here only: no pass/fail on speed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeSpan } from "@/lib/evidence/analyze";
import { decide, evaluateGate, type GateSpan } from "@/lib/evidence/gate";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import type { CandidateSummary, EvidentialClass, OriginalFacts } from "@/lib/evidence/types";
import { generateCorpus, type BenchSpan } from "./engine-corpus";

const MB = 1_000_000;
const CORPUS_BYTES = 52 * 1024 * 1024;
const PASSES = 3;

function mbps(bytes: number, ms: number): number {
  return bytes / MB / (ms / 1000);
}
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
function fmt(n: number, digits = 1): string {
  return n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function table(rows: Array<[string, string]>): string {
  const w = Math.max(...rows.map(([k]) => k.length));
  const v = Math.max(...rows.map(([, x]) => x.length));
  const line = `+${"-".repeat(w + 2)}+${"-".repeat(v + 2)}+`;
  return [line, ...rows.map(([k, x]) => `| ${k.padEnd(w)} | ${x.padStart(v)} |`), line].join("\n");
}

// --- corpus ---------------------------------------------------------------------------------
const tGen = performance.now();
const corpus = generateCorpus(CORPUS_BYTES, 42);
const warm = generateCorpus(4 * 1024 * 1024, 7);
const totalBytes = corpus.reduce((n, s) => n + s.input.body.length, 0);
console.log(
  `corpus: ${corpus.length} spans, ${fmt(totalBytes / MB)} MB (generated in ${fmt((performance.now() - tGen) / 1000)} s)`,
);
const byLabel = new Map<string, { n: number; bytes: number }>();
for (const s of corpus) {
  const group = s.label.split(":")[0]!;
  const e = byLabel.get(group) ?? { n: 0, bytes: 0 };
  e.n++;
  e.bytes += s.input.body.length;
  byLabel.set(group, e);
}
console.log(
  "mix:",
  [...byLabel]
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .map(([k, v]) => `${k} ${v.n} spans/${fmt((100 * v.bytes) / totalBytes, 0)}%`)
    .join(", "),
);

// --- 1. extraction + classification ---------------------------------------------------------
for (const s of warm) analyzeSpan(s.input);
const passMs: number[] = [];
let atoms = 0;
const classes: Record<EvidentialClass, number> = { NARRATIVE: 0, STRUCTURED: 0, SIDE_EFFECTING: 0 };
const analyzed: Array<{ span: BenchSpan; cls: EvidentialClass; atoms: number }> = [];
for (let p = 0; p < PASSES; p++) {
  const t0 = performance.now();
  for (const s of corpus) {
    const r = analyzeSpan(s.input);
    if (p === 0) {
      atoms += r.atoms.length;
      classes[r.classification.class]++;
      analyzed.push({ span: s, cls: r.classification.class, atoms: r.atoms.length });
    }
  }
  passMs.push(performance.now() - t0);
}
const engineBest = mbps(totalBytes, Math.min(...passMs));
const engineMedian = mbps(totalBytes, median(passMs));
const engineFirst = mbps(totalBytes, passMs[0]!);

// --- 2. gate decisions -------------------------------------------------------------------------
const now = new Date("2026-06-01T00:00:00Z");
const day = 86_400_000;
const originals: Array<OriginalFacts | null> = [
  { present: true, hashMatches: true, expiresAt: null, pinned: false },
  { present: true, hashMatches: true, expiresAt: new Date(now.getTime() + 30 * day), pinned: false },
  { present: true, hashMatches: true, expiresAt: new Date(now.getTime() + 900 * day), pinned: false },
  { present: true, hashMatches: true, expiresAt: new Date(now.getTime() + 30 * day), pinned: true },
  { present: false, hashMatches: false, expiresAt: null, pinned: false },
  { present: true, hashMatches: false, expiresAt: null, pinned: false },
  null,
];
const gateSpans: GateSpan[] = [];
for (let i = 0; i < 10_000; i++) {
  const a = analyzed[i % analyzed.length]!;
  gateSpans.push({
    id: `span-${i}`,
    class: a.cls,
    atoms: [],
    hasPointer: i % 5 !== 0,
    original: originals[i % originals.length]!,
    occurredAt: new Date(now.getTime() - (i % 400) * day),
  });
}
const policy = DEFAULT_POLICY;
// Warm up, then time.
for (let i = 0; i < 200_000; i++) decide(gateSpans[i % gateSpans.length]!, undefined, policy, now);
let decisions = 0;
let refusals = 0;
const tGate = performance.now();
while (performance.now() - tGate < 2000) {
  for (let i = 0; i < gateSpans.length; i++) {
    if (decide(gateSpans[i]!, undefined, policy, now).verdict === "REFUSE") refusals++;
  }
  decisions += gateSpans.length;
}
const gateMs = performance.now() - tGate;
const gatePerSec = decisions / (gateMs / 1000);

// With a candidate summary: the span's atoms are checked against the summary text and manifest.
const summary: CandidateSummary = {
  text: "Edited /home/dev/app/src/server.ts and ran the tests (42 passed in 3.1 s).",
  pointers: gateSpans.slice(0, 50).map((s) => ({ spanId: s.id, byteStart: 0, byteEnd: 10, sha256: "0".repeat(64) })),
  omissions: {
    omitted: [
      { kind: "PATH", count: 2 },
      { kind: "NUMBER", count: 3 },
    ],
  },
};
const withAtoms = gateSpans.slice(0, 50).map((s, i) => ({ ...s, atoms: analyzeSpan(corpus[i]!.input).atoms.slice(0, 8) }));
for (let i = 0; i < 200; i++) evaluateGate({ spans: withAtoms, summary, policy, now });
let summaryDecisions = 0;
const tSum = performance.now();
while (performance.now() - tSum < 1500) {
  summaryDecisions += evaluateGate({ spans: withAtoms, summary, policy, now }).length;
}
const summaryPerSec = summaryDecisions / ((performance.now() - tSum) / 1000);

// --- 3. ripgrep on the same bytes ----------------------------------------------------------
const dir = mkdtempSync(join(tmpdir(), "custodian-bench-"));
const file = join(dir, "corpus.txt");
const parts: Uint8Array[] = [];
const nl = new Uint8Array([0x0a]);
for (const s of corpus) parts.push(s.input.body, nl);
writeFileSync(file, Buffer.concat(parts));
const patterns = [
  String.raw`(?:~|\.{1,2})?/[\w.@%+-]+(?:/[\w.@%+-]+)+`,
  String.raw`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`,
  String.raw`\b\d+(?:\.\d+)?\s?(?:ms|s|MB|KB|GB|files|lines|tests)\b`,
];
const rgArgs = ["-c", "-j1", "--no-messages", ...patterns.flatMap((p) => ["-e", p]), file];
let rgMs = Infinity;
let rgLines = "";
let rgError: string | null = null;
for (let p = 0; p < PASSES; p++) {
  const t0 = performance.now();
  const r = spawnSync("/usr/bin/rg", rgArgs, { encoding: "utf8" });
  const ms = performance.now() - t0;
  if (r.error || (r.status !== 0 && r.status !== 1)) {
    rgError = r.error ? String(r.error) : `exit ${r.status}: ${r.stderr}`;
    break;
  }
  rgLines = r.stdout.trim();
  rgMs = Math.min(rgMs, ms);
}
rmSync(dir, { recursive: true, force: true });
const fileBytes = totalBytes + corpus.length;
const rgMbps = rgError ? NaN : mbps(fileBytes, rgMs);

// --- report ----------------------------------------------------------------------------------
console.log("");
console.log(
  table([
    ["corpus", `${fmt(totalBytes / MB)} MB, ${corpus.length} spans`],
    ["atoms extracted", `${atoms.toLocaleString("en-US")} (${fmt(atoms / (totalBytes / 1024), 2)}/KB)`],
    ["classes", `${classes.NARRATIVE} narrative, ${classes.STRUCTURED} structured, ${classes.SIDE_EFFECTING} side-effecting`],
    [`extract+classify, best of ${PASSES}`, `${fmt(engineBest)} MB/s`],
    [`extract+classify, median of ${PASSES}`, `${fmt(engineMedian)} MB/s`],
    ["extract+classify, first pass", `${fmt(engineFirst)} MB/s`],
    ["gate decisions (decide, no summary)", `${Math.round(gatePerSec).toLocaleString("en-US")} /s`],
    ["gate decisions (evaluateGate, with summary)", `${Math.round(summaryPerSec).toLocaleString("en-US")} /s`],
    ["  refusals in the decide loop", `${fmt((100 * refusals) / decisions)} %`],
    [
      "rg -c -j1 (path|uuid|number), best of 3",
      rgError ? `failed: ${rgError}` : `${fmt(rgMbps)} MB/s (${rgLines} matching lines)`,
    ],
    ["engine / rg (best vs best)", rgError ? "n/a" : `${fmt(engineBest / rgMbps, 3)}`],
  ]),
);
console.log("");
console.log(`targets: extract+classify >= 40 MB/s, gate >= 1,000,000 decisions/s (one core).`);
