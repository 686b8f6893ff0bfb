/**
 * How well the classifier labels real tool calls: every call of the labelled corpus
 * (tool-calls.json, sources in SOURCES.md) runs through analyzeSpan as a TOOL_CALL span whose
 * body is its input JSON (or, for a command-line call, the command), with the runtime's tool name
 * and input. Prints precision and recall per class. Side-effecting recall must be 100%: a
 * mutation called read-only turns into a false NO. Precision may cost a little (a tool not known
 * to be read-only is side-effecting by design), but no more than 5%.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeSpan } from "../analyze";
import { EVIDENTIAL_CLASSES, type EvidentialClass, SIDE_EFFECT_KINDS, type SideEffectKind } from "../types";

interface CorpusEntry {
  id: string;
  format: string;
  source: string;
  toolName: string | null;
  toolInput?: unknown;
  command?: string;
  expected: { class: EvidentialClass; effects?: SideEffectKind[] };
  reason?: string;
}

const here = import.meta.dirname;
const corpus: CorpusEntry[] = JSON.parse(readFileSync(join(here, "tool-calls.json"), "utf8"));
const sources = readFileSync(join(here, "SOURCES.md"), "utf8");
const enc = new TextEncoder();

function classify(e: CorpusEntry) {
  const body = e.toolInput !== undefined ? JSON.stringify(e.toolInput) : (e.command ?? "");
  return analyzeSpan({
    kind: "TOOL_CALL",
    body: enc.encode(body),
    ...(e.toolName !== null ? { toolName: e.toolName } : {}),
    ...(e.toolInput !== undefined ? { toolInput: e.toolInput } : {}),
  }).classification;
}

const results = corpus.map((e) => ({ e, got: classify(e) }));

interface Row {
  cls: EvidentialClass;
  n: number;
  tp: number;
  fp: number;
  fn: number;
}

const rows: Row[] = EVIDENTIAL_CLASSES.map((cls) => {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const { e, got } of results) {
    if (got.class === cls && e.expected.class === cls) tp++;
    else if (got.class === cls) fp++;
    else if (e.expected.class === cls) fn++;
  }
  return { cls, n: tp + fn, tp, fp, fn };
});
const ratio = (a: number, b: number) => (b === 0 ? Number.NaN : a / b);
const pct = (x: number) => (Number.isNaN(x) ? "   -  " : `${(100 * x).toFixed(1).padStart(5)}%`);

describe("classification of the real tool-call corpus", () => {
  it("is a corpus of at least 300 labelled calls from at least five formats, every source documented", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
    expect(new Set(corpus.map((e) => e.format)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(corpus.map((e) => e.id)).size).toBe(corpus.length);
    for (const e of corpus) {
      expect(sources, `${e.id}: source ${e.source}`).toContain(`\`${e.source}\``);
      expect(EVIDENTIAL_CLASSES, e.id).toContain(e.expected.class);
      expect(e.toolInput !== undefined || typeof e.command === "string", e.id).toBe(true);
      if (e.expected.class === "SIDE_EFFECTING") {
        expect(e.expected.effects?.length, e.id).toBeGreaterThan(0);
        for (const k of e.expected.effects!) expect(SIDE_EFFECT_KINDS, e.id).toContain(k);
      } else {
        expect(e.expected.effects, e.id).toBeUndefined();
      }
    }
  });

  it("reports precision and recall per class; side-effecting recall is 100%, precision at least 95%", () => {
    const lines = [
      "class            n   precision  recall",
      ...rows.map(
        (r) =>
          `${r.cls.padEnd(15)}${String(r.n).padStart(4)}   ${pct(ratio(r.tp, r.tp + r.fp))}    ${pct(ratio(r.tp, r.tp + r.fn))}`,
      ),
    ];
    const wrong = results.filter(({ e, got }) => got.class !== e.expected.class);
    for (const { e, got } of wrong)
      lines.push(`  ${e.id}: expected ${e.expected.class}, got ${got.class} (${e.toolName ?? e.command?.slice(0, 40)})`);
    console.log(`Tool-call classification over ${corpus.length} real calls\n${lines.join("\n")}`);

    const se = rows.find((r) => r.cls === "SIDE_EFFECTING")!;
    expect(se.fn, "side-effecting calls classified lower").toBe(0);
    expect(ratio(se.tp, se.tp + se.fp)).toBeGreaterThanOrEqual(0.95);
  });

  it("names every expected effect kind of a side-effecting call", () => {
    const missing = results
      .filter(({ e }) => e.expected.class === "SIDE_EFFECTING")
      .flatMap(({ e, got }) => (e.expected.effects ?? []).filter((k) => !got.effects.includes(k)).map((k) => `${e.id}: ${k}`));
    expect(missing).toEqual([]);
  });
});
