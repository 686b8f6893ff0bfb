import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decide, evaluateGate, prepareSummary, type GateSpan } from "./gate";
import { makeHonestSummary } from "./manifest";
import { DEFAULT_POLICY } from "./policy";
import { atom, daysAfter, originals, T0 } from "./testkit";
import {
  ATOM_KINDS,
  EVIDENTIAL_CLASSES,
  type Atom,
  type CandidateSummary,
  type EvidentialClass,
  type OriginalFacts,
  type ProvenancePointer,
  type RetentionPolicy,
} from "./types";

const policy = DEFAULT_POLICY;
const now = daysAfter(T0, 10);
const SHA = "a".repeat(64);
const pointerTo = (id: string, sha256 = SHA): ProvenancePointer => ({ spanId: id, byteStart: 0, byteEnd: 10, sha256 });

function span(cls: EvidentialClass, hasPointer: boolean, original: OriginalFacts | null, atoms: Atom[] = []): GateSpan {
  return { id: "sp", class: cls, atoms, hasPointer, original, occurredAt: T0, sha256: SHA };
}

/**
 * The seed's `may_reclaim_lossily`, transcribed: narrative always; otherwise only with a pointer
 * and a retrievable original (it raises, i.e. refuses, in every other case).
 */
function seedMayReclaimLossily(cls: EvidentialClass, hasPointer: boolean, retrievable: boolean): boolean {
  if (cls === "NARRATIVE") return true;
  return hasPointer && retrievable;
}

describe("the seed's truth table", () => {
  const cases = EVIDENTIAL_CLASSES.flatMap((cls) =>
    [true, false].flatMap((hasPointer) => [true, false].map((retrievable) => ({ cls, hasPointer, retrievable }))),
  );

  it.each(cases)("$cls pointer=$hasPointer retrievable=$retrievable", ({ cls, hasPointer, retrievable }) => {
    // Retrievable (durably) vs gone; the pointer maps the pair onto DURABLE / LOST / NONE.
    const original = retrievable ? originals.forever() : originals.deleted();
    const expectedColumn = !hasPointer ? "NONE" : retrievable ? "DURABLE" : "LOST";
    const expectedVerdict = seedMayReclaimLossily(cls, hasPointer, retrievable) ? "RECLAIM" : "REFUSE";

    const d = decide(span(cls, hasPointer, original), undefined, policy, now);
    expect(d.cell).toEqual({ class: cls, provenance: expectedColumn });
    expect(d.verdict).toBe(expectedVerdict);

    // The same through a candidate summary whose pointer is the link (no manifest: never honest).
    const summary: CandidateSummary = { text: "summary", pointers: hasPointer ? [pointerTo("sp")] : [] };
    const [viaSummary] = evaluateGate({ spans: [span(cls, false, original)], summary, policy, now });
    expect(viaSummary!.cell).toEqual({ class: cls, provenance: expectedColumn });
    expect(viaSummary!.verdict).toBe(expectedVerdict);
  });

  it("covers all 12 combinations", () => {
    expect(cases).toHaveLength(12);
  });
});

describe("the DESIGN table", () => {
  const expiring = originals.expiringAt(daysAfter(T0, 100)); // before the 400-day horizon
  const lost = originals.expiringAt(daysAfter(T0, 5)); // TTL passed before `now`
  const facts = {
    DURABLE: { hasPointer: true, original: originals.forever() },
    EXPIRING: { hasPointer: true, original: expiring },
    LOST: { hasPointer: true, original: lost },
    NONE: { hasPointer: false, original: originals.forever() },
  } as const;
  const table: Record<EvidentialClass, Record<keyof typeof facts, "RECLAIM" | "REFUSE">> = {
    NARRATIVE: { DURABLE: "RECLAIM", EXPIRING: "RECLAIM", LOST: "RECLAIM", NONE: "RECLAIM" },
    STRUCTURED: { DURABLE: "RECLAIM", EXPIRING: "REFUSE", LOST: "REFUSE", NONE: "REFUSE" },
    SIDE_EFFECTING: { DURABLE: "RECLAIM", EXPIRING: "REFUSE", LOST: "REFUSE", NONE: "REFUSE" },
  };
  for (const cls of EVIDENTIAL_CLASSES) {
    for (const col of ["DURABLE", "EXPIRING", "LOST", "NONE"] as const) {
      it(`${cls} x ${col} -> ${table[cls][col]}`, () => {
        const f = facts[col];
        const d = decide(span(cls, f.hasPointer, f.original, [atom("PATH", "/x")]), undefined, policy, now);
        expect(d.cell).toEqual({ class: cls, provenance: col });
        expect(d.verdict).toBe(table[cls][col]);
        expect(d.reason.length).toBeGreaterThan(20);
        if (d.verdict === "REFUSE") expect(d.atomsAtRisk).toEqual([atom("PATH", "/x")]);
        else expect(d.atomsAtRisk).toBeUndefined();
      });
    }
  }
});

describe("policy switch: no evidence-demanding workloads", () => {
  const off: RetentionPolicy = { ...policy, evidenceWorkloads: false };

  it("releases structured spans in every column", () => {
    for (const original of [originals.deleted(), originals.expiringAt(daysAfter(T0, 100))]) {
      for (const hasPointer of [true, false]) {
        const d = decide(span("STRUCTURED", hasPointer, original), undefined, off, now);
        expect(d.verdict).toBe("RECLAIM");
        expect(d.reason).toMatch(/no evidence-demanding workloads/);
      }
    }
  });

  it("keeps refusing side-effecting spans outside DURABLE", () => {
    expect(decide(span("SIDE_EFFECTING", false, null), undefined, off, now).verdict).toBe("REFUSE");
    expect(decide(span("SIDE_EFFECTING", true, originals.deleted()), undefined, off, now).verdict).toBe("REFUSE");
  });
});

describe("lossy-but-honest summaries", () => {
  const atoms = [atom("PATH", "/etc/app/conf.yaml"), atom("TOOL_ARG", "overwrite"), atom("TOOL_CALL", "write_file")];
  const lostSpan = span("SIDE_EFFECTING", false, originals.deleted(), atoms);

  it("RECLAIM_HONEST in a refusing cell when the manifest names every dropped atom and a pointer is carried", () => {
    const summary = makeHonestSummary(atoms, "Configured the app.", pointerTo("sp"));
    const [d] = evaluateGate({ spans: [lostSpan], summary, policy, now });
    expect(d!.verdict).toBe("RECLAIM_HONEST");
    expect(d!.cell).toEqual({ class: "SIDE_EFFECTING", provenance: "LOST" });
    expect(d!.manifestCheck).toMatchObject({ honest: true, missing: [] });
    expect(d!.reason).toMatch(/lossy but honest/);
  });

  it("REFUSE when the manifest undercounts, listing the atoms at risk and what is missing", () => {
    const summary: CandidateSummary = {
      text: "Configured the app with write_file.",
      pointers: [pointerTo("sp")],
      omissions: { omitted: [{ kind: "TOOL_ARG", count: 1 }] },
    };
    const [d] = evaluateGate({ spans: [lostSpan], summary, policy, now });
    expect(d!.verdict).toBe("REFUSE");
    expect(d!.atomsAtRisk!.map((a) => a.kind)).toEqual(["PATH", "TOOL_ARG"]);
    expect(d!.manifestCheck!.missing).toEqual([{ kind: "PATH", count: 1 }]);
    expect(d!.reason).toMatch(/does not name 1 path/);
  });

  it("REFUSE without a manifest, however fluent, and without a pointer", () => {
    const fluent: CandidateSummary = { text: "write_file /etc/app/conf.yaml overwrite", pointers: [pointerTo("sp")] };
    const [a] = evaluateGate({ spans: [lostSpan], summary: fluent, policy, now });
    expect(a!.verdict).toBe("REFUSE");
    expect(a!.atomsAtRisk).toEqual([]);
    const honestButUnlinked = { ...makeHonestSummary(atoms, "Configured the app.", pointerTo("sp")), pointers: [] };
    const [b] = evaluateGate({ spans: [lostSpan], summary: honestButUnlinked, policy, now });
    expect(b!.verdict).toBe("REFUSE");
    expect(b!.cell.provenance).toBe("NONE");
    expect(b!.reason).toMatch(/no pointer/);
  });

  it("a pointer with another span's hash links to nothing", () => {
    const summary = makeHonestSummary(atoms, "Configured the app.", pointerTo("sp", "b".repeat(64)));
    const [d] = evaluateGate({ spans: [{ ...lostSpan, original: originals.forever() }], summary, policy, now });
    expect(d!.cell.provenance).toBe("NONE");
    expect(d!.verdict).toBe("REFUSE");
  });

  it("a summary's pointer decides over the span's hasPointer flag", () => {
    const s = span("STRUCTURED", true, originals.forever(), atoms);
    const [d] = evaluateGate({ spans: [s], summary: { text: "x", pointers: [] }, policy, now });
    expect(d!.cell.provenance).toBe("NONE");
    expect(d!.verdict).toBe("REFUSE");
  });

  it("decides a batch in input order and accepts a prepared summary", () => {
    const summary = makeHonestSummary(atoms, "Configured the app.", [pointerTo("a"), pointerTo("b")]);
    const spans = ["a", "b", "c"].map((id) => ({ ...lostSpan, id }));
    const ds = evaluateGate({ spans, summary, policy, now });
    expect(ds.map((d) => [d.spanId, d.verdict])).toEqual([
      ["a", "RECLAIM_HONEST"],
      ["b", "RECLAIM_HONEST"],
      ["c", "REFUSE"],
    ]);
    const prepared = prepareSummary(summary);
    expect(spans.map((s) => decide(s, prepared, policy, now).verdict)).toEqual(ds.map((d) => d.verdict));
  });
});

// ---- properties ----

const arbClass = fc.constantFrom(...EVIDENTIAL_CLASSES);
const arbAtom = fc
  .record({
    kind: fc.constantFrom(...ATOM_KINDS),
    text: fc.stringMatching(/^[a-z0-9/._-]{1,12}$/),
  })
  .map(({ kind, text }) => atom(kind, text));
const arbOriginal: fc.Arbitrary<OriginalFacts | null> = fc.option(
  fc.record({
    present: fc.boolean(),
    hashMatches: fc.boolean(),
    expiresAt: fc.option(
      fc.integer({ min: -50, max: 900 }).map((d) => daysAfter(T0, d)),
      { nil: null },
    ),
    pinned: fc.boolean(),
  }),
  { nil: null },
);
const arbSpan: fc.Arbitrary<GateSpan> = fc.record({
  id: fc.constantFrom("s1", "s2", "s3"),
  class: arbClass,
  atoms: fc.array(arbAtom, { maxLength: 6 }),
  hasPointer: fc.boolean(),
  original: arbOriginal,
  occurredAt: fc.integer({ min: -30, max: 30 }).map((d) => daysAfter(T0, d)),
  sha256: fc.constant(SHA),
});
const arbPolicy: fc.Arbitrary<RetentionPolicy> = fc.record({
  evidenceHorizonDays: fc.integer({ min: 1, max: 800 }),
  ttlDays: fc.record({
    NARRATIVE: fc.integer({ min: 0, max: 800 }),
    STRUCTURED: fc.integer({ min: 0, max: 800 }),
    SIDE_EFFECTING: fc.integer({ min: 0, max: 800 }),
  }),
  evidenceWorkloads: fc.boolean(),
  systemConfigPrefixes: fc.constant(["/etc/"]),
});
const arbNow = fc.integer({ min: 0, max: 1000 }).map((d) => daysAfter(T0, d));
const arbSummary: fc.Arbitrary<CandidateSummary | undefined> = fc.option(
  fc.record(
    {
      text: fc.string({ maxLength: 40 }),
      pointers: fc.subarray(["s1", "s2", "s3"]).map((ids) => ids.map((id) => pointerTo(id))),
      omissions: fc.record({
        omitted: fc.array(fc.record({ kind: fc.constantFrom(...ATOM_KINDS), count: fc.integer({ min: 0, max: 4 }) }), {
          maxLength: 4,
        }),
      }),
    },
    { requiredKeys: ["text", "pointers"] },
  ),
  { nil: undefined },
);

describe("gate properties", () => {
  it("never RECLAIMs a structured or side-effecting span outside DURABLE while evidence workloads are on", () => {
    fc.assert(
      fc.property(arbSpan, arbSummary, arbPolicy, arbNow, (s, summary, p, at) => {
        const d = decide(s, summary, { ...p, evidenceWorkloads: true }, at);
        if (s.class !== "NARRATIVE" && d.verdict === "RECLAIM") return d.cell.provenance === "DURABLE";
        return true;
      }),
      { numRuns: 3000 },
    );
  });

  it("an honest summary always yields RECLAIM_HONEST in a refusing cell", () => {
    fc.assert(
      fc.property(arbSpan, fc.string({ maxLength: 40 }), arbPolicy, arbNow, (s, text, p, at) => {
        const summary = makeHonestSummary(s.atoms, text, pointerTo(s.id));
        const d = decide(s, summary, p, at);
        const refusing =
          d.cell.class !== "NARRATIVE" &&
          d.cell.provenance !== "DURABLE" &&
          !(d.cell.class === "STRUCTURED" && !p.evidenceWorkloads);
        return refusing ? d.verdict === "RECLAIM_HONEST" : d.verdict === "RECLAIM";
      }),
      { numRuns: 3000 },
    );
  });

  it("the verdict without a summary is a function of the cell alone (no scalar of age, size or recency)", () => {
    fc.assert(
      fc.property(arbSpan, arbSpan, arbPolicy, arbNow, arbNow, (a, b, p, t1, t2) => {
        const da = decide(a, undefined, p, t1);
        const db = decide(b, undefined, p, t2);
        const sameCell = da.cell.class === db.cell.class && da.cell.provenance === db.cell.provenance;
        return !sameCell || da.verdict === db.verdict;
      }),
      { numRuns: 3000 },
    );
  });

  it("the cell's class is the span's class, RECLAIM_HONEST only in refusing cells, atomsAtRisk only on REFUSE", () => {
    fc.assert(
      fc.property(arbSpan, arbSummary, arbPolicy, arbNow, (s, summary, p, at) => {
        const d = decide(s, summary, p, at);
        if (d.cell.class !== s.class || d.spanId !== s.id) return false;
        if (d.verdict === "RECLAIM_HONEST" && (s.class === "NARRATIVE" || d.cell.provenance === "DURABLE")) return false;
        return (d.verdict === "REFUSE") === (d.atomsAtRisk !== undefined);
      }),
      { numRuns: 3000 },
    );
  });

  it("turning evidence workloads off changes verdicts only for structured spans", () => {
    fc.assert(
      fc.property(arbSpan, arbSummary, arbPolicy, arbNow, (s, summary, p, at) => {
        const on = decide(s, summary, { ...p, evidenceWorkloads: true }, at);
        const off = decide(s, summary, { ...p, evidenceWorkloads: false }, at);
        return s.class === "STRUCTURED" ? off.verdict === "RECLAIM" : on.verdict === off.verdict;
      }),
      { numRuns: 2000 },
    );
  });
});
