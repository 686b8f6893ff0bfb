/**
 * The seed's scenario end to end in the engine (seed/compaction-evidence-invariant.md, "What Was
 * Observed"): a write to /etc/app/conf.yaml folded into "The agent configured the application's
 * YAML configuration.", and later the question "did we ever modify system config?".
 */
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeSpan } from "./analyze";
import { evaluateGate, type GateSpan } from "./gate";
import { makeHonestSummary } from "./manifest";
import { DEFAULT_POLICY, expiresAtFor } from "./policy";
import { answerQuestion, CANNED_QUESTIONS, type QuestionSpan } from "./questions";
import { bytes, daysAfter, originals, T0 } from "./testkit";
import type { CandidateSummary, OriginalFacts, ProvenancePointer, SpanAnalysis } from "./types";

const BODY_TEXT = 'write_file(path="/etc/app/conf.yaml", mode="overwrite")';
const BODY = bytes(BODY_TEXT);
const SUMMARY_TEXT = "The agent configured the application's YAML configuration.";
const SPAN_ID = "sp-0042";
const PATH_START = BODY_TEXT.indexOf("/etc/app/conf.yaml");
const PATH_END = PATH_START + "/etc/app/conf.yaml".length;

const policy = DEFAULT_POLICY;
const occurredAt = T0;
const now = daysAfter(T0, 10);
const SYSTEM_CONFIG = CANNED_QUESTIONS["modified-system-config"];

let analysis: SpanAnalysis;
let sha256: string;
let pointer: ProvenancePointer;

beforeAll(async () => {
  analysis = analyzeSpan({
    body: BODY,
    kind: "TOOL_CALL",
    toolName: "write_file",
    toolInput: { path: "/etc/app/conf.yaml", mode: "overwrite" },
    cwd: "/work/app",
  });
  // Web Crypto: the same in the browser and on the server.
  const digest = await crypto.subtle.digest("SHA-256", BODY);
  sha256 = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  pointer = { spanId: SPAN_ID, byteStart: 0, byteEnd: BODY.length, sha256 };
});

/** The original in each provenance state the scenario walks through. */
const ORIGINALS = {
  DURABLE: (): OriginalFacts => originals.expiringAt(expiresAtFor("SIDE_EFFECTING", occurredAt, policy)),
  EXPIRING: (): OriginalFacts => originals.expiringAt(daysAfter(occurredAt, 30)), // a 30-day TTL, 400-day horizon
  LOST: (): OriginalFacts => originals.deleted(),
};

function gateSpan(original: OriginalFacts): GateSpan {
  return {
    id: SPAN_ID,
    class: analysis.classification.class,
    atoms: analysis.atoms,
    hasPointer: true,
    original,
    occurredAt,
    sha256,
  };
}

function decideWith(summary: CandidateSummary, original: OriginalFacts) {
  const [d] = evaluateGate({ spans: [gateSpan(original)], summary, policy, now });
  return d!;
}

describe("the seed's scenario", () => {
  it("classifies the write as SIDE_EFFECTING and finds the path it wrote", () => {
    expect(analysis.classification.class).toBe("SIDE_EFFECTING");
    // The seed's bare body, without the runtime's hints, is side-effecting too.
    expect(analyzeSpan({ body: BODY, kind: "TOOL_CALL" }).classification.class).toBe("SIDE_EFFECTING");
    const target = analysis.atoms.find((a) => a.normalized === "/etc/app/conf.yaml" && a.effect === "FILE_WRITE");
    expect(target).toBeDefined();
    // Some atom locates the path's exact bytes.
    expect(analysis.atoms.some((a) => a.byteStart === PATH_START && a.byteEnd === PATH_END)).toBe(true);
  });

  describe("the gate", () => {
    const lossy = () => ({ text: SUMMARY_TEXT, pointers: [pointer] });

    it("refuses the fluent summary while the original is EXPIRING, naming the atoms it would lose", () => {
      const d = decideWith(lossy(), ORIGINALS.EXPIRING());
      expect(d.verdict).toBe("REFUSE");
      expect(d.cell).toEqual({ class: "SIDE_EFFECTING", provenance: "EXPIRING" });
      expect(d.atomsAtRisk!.some((a) => a.normalized === "/etc/app/conf.yaml")).toBe(true);
    });

    it("refuses it once the original is LOST", () => {
      const d = decideWith(lossy(), ORIGINALS.LOST());
      expect(d.verdict).toBe("REFUSE");
      expect(d.cell).toEqual({ class: "SIDE_EFFECTING", provenance: "LOST" });
    });

    it("refuses it without a pointer even though the bytes exist", () => {
      const d = decideWith({ text: SUMMARY_TEXT, pointers: [] }, ORIGINALS.DURABLE());
      expect(d.verdict).toBe("REFUSE");
      expect(d.cell.provenance).toBe("NONE");
    });

    it("accepts it when the original is DURABLE", () => {
      const d = decideWith(lossy(), ORIGINALS.DURABLE());
      expect(d.verdict).toBe("RECLAIM");
      expect(d.cell).toEqual({ class: "SIDE_EFFECTING", provenance: "DURABLE" });
    });

    it("accepts it as RECLAIM_HONEST with a manifest, while EXPIRING and when LOST", () => {
      const honest = makeHonestSummary(analysis.atoms, SUMMARY_TEXT, pointer);
      expect(honest.text).toMatch(/omitted: .*1 path.*; original: sp-0042@0-55 sha256:[0-9a-f]{12}/);
      for (const state of ["EXPIRING", "LOST"] as const) {
        const d = decideWith(honest, ORIGINALS[state]());
        expect(d.verdict).toBe("RECLAIM_HONEST");
        expect(d.cell.provenance).toBe(state);
      }
    });
  });

  describe('"did we modify system config?"', () => {
    const scope = { sessions: [{ id: "sess", cwd: "/work/app" }] };

    function summarySpan(text: string): QuestionSpan {
      const body = bytes(text);
      return {
        id: "sum-1",
        sessionId: "sess",
        seq: 1,
        kind: "SUMMARY",
        class: "SIDE_EFFECTING", // the highest class of its root
        transcriptState: "VERBATIM",
        provenance: "DURABLE",
        originalRetrievable: true,
        atoms: analyzeSpan({ body, kind: "SUMMARY", cwd: "/work/app" }).atoms,
        sha256: "f".repeat(64),
        body,
        replaces: [SPAN_ID],
      };
    }

    function replacedSpan(state: "DURABLE" | "EXPIRING" | "LOST" | "NONE", extra: Partial<QuestionSpan> = {}): QuestionSpan {
      const retrievable = state === "DURABLE" || state === "EXPIRING";
      return {
        id: SPAN_ID,
        sessionId: "sess",
        seq: 0,
        kind: "TOOL_CALL",
        class: analysis.classification.class,
        transcriptState: "RECLAIMED",
        provenance: state,
        // With no pointer Custodian may still hold the bytes: nothing links the summary to them.
        originalRetrievable: retrievable || state === "NONE",
        atoms: retrievable ? analysis.atoms : [],
        sha256,
        ...(retrievable ? { body: BODY } : {}),
        ...extra,
      };
    }

    it.each(["DURABLE", "EXPIRING"] as const)("answers YES with the exact bytes while the original is %s", (state) => {
      const r = answerQuestion(SYSTEM_CONFIG, scope, [replacedSpan(state), summarySpan(SUMMARY_TEXT)]);
      expect(r.answer).toBe("YES");
      const c = r.citations.find((x) => x.byteStart === PATH_START && x.byteEnd === PATH_END);
      expect(c).toMatchObject({ sessionId: "sess", spanId: SPAN_ID, seq: 0, sha256 });
      expect(new TextDecoder().decode(c!.bytes)).toBe("/etc/app/conf.yaml");
      expect(r.citations.every((x) => x.spanId === SPAN_ID)).toBe(true);
    });

    it("answers INSUFFICIENT_EVIDENCE once the original is LOST, naming the blocking span", () => {
      const r = answerQuestion(SYSTEM_CONFIG, scope, [replacedSpan("LOST"), summarySpan(SUMMARY_TEXT)]);
      expect(r.answer).toBe("INSUFFICIENT_EVIDENCE");
      expect(r.blockers.map((b) => b.spanId)).toContain(SPAN_ID);
      expect(r.blockers.find((b) => b.spanId === SPAN_ID)).toMatchObject({
        provenance: "LOST",
        class: "SIDE_EFFECTING",
        unblockBy: "none",
      });
    });

    it("answers INSUFFICIENT_EVIDENCE when the summary came with no pointer", () => {
      const r = answerQuestion(SYSTEM_CONFIG, scope, [replacedSpan("NONE"), summarySpan(SUMMARY_TEXT)]);
      expect(r.answer).toBe("INSUFFICIENT_EVIDENCE");
      expect(r.blockers.find((b) => b.spanId === SPAN_ID)).toMatchObject({ provenance: "NONE", originalHeld: true });
    });

    it("an honest summary over a lost original still blocks, saying it dropped the path", () => {
      const honest = makeHonestSummary(analysis.atoms, SUMMARY_TEXT, pointer);
      const lost = replacedSpan("LOST", {
        transcriptState: "RECLAIMED_HONEST",
        droppedByManifest: honest.omissions!.omitted.map(({ kind, count }) => ({ kind, count })),
      });
      const r = answerQuestion(SYSTEM_CONFIG, scope, [lost, summarySpan(honest.text)]);
      expect(r.answer).toBe("INSUFFICIENT_EVIDENCE");
      expect(r.blockers.find((b) => b.spanId === SPAN_ID)!.dropped).toContainEqual({ kind: "PATH", count: 1 });
    });

    it("never answers YES from a summary's text alone", () => {
      const r = answerQuestion(SYSTEM_CONFIG, scope, [replacedSpan("LOST"), summarySpan("The agent wrote /etc/app/conf.yaml.")]);
      expect(r.answer).toBe("INSUFFICIENT_EVIDENCE");
      expect(r.citations).toEqual([]);
    });

    it("never answers NO from the fluent summary either", () => {
      // The seed's failure: reading only the summary, the agent concluded no system change occurred.
      for (const state of ["LOST", "NONE"] as const) {
        expect(answerQuestion(SYSTEM_CONFIG, scope, [replacedSpan(state), summarySpan(SUMMARY_TEXT)]).answer).not.toBe("NO");
      }
    });
  });
});
