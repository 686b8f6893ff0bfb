import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classRank, isRatchetUp, maxClass, maxClassOf } from "./classes";
import { computeAllLineages, computeLineage, LineageError, type LineageLink, type LineageSpanFacts } from "./lineage";
import { makeHonestSummary } from "./manifest";
import { DEFAULT_POLICY } from "./policy";
import { atom, daysAfter, originals, T0 } from "./testkit";
import { EVIDENTIAL_CLASSES, type Atom, type EvidentialClass, type OriginalFacts } from "./types";

const policy = DEFAULT_POLICY;
const now = daysAfter(T0, 10);
const link = (spanId: string, hasPointer = true): LineageLink => ({ spanId, hasPointer });

function original(cls: EvidentialClass, atoms: Atom[], o: OriginalFacts | null = originals.forever()): LineageSpanFacts {
  return { class: cls, atoms, original: o, occurredAt: T0 };
}
function summary(text: string, omissions?: LineageSpanFacts["omissions"]): LineageSpanFacts {
  const f: LineageSpanFacts = { class: "NARRATIVE", atoms: [], original: originals.forever(), occurredAt: T0, text };
  if (omissions) f.omissions = omissions;
  return f;
}

describe("classes", () => {
  it("orders NARRATIVE < STRUCTURED < SIDE_EFFECTING", () => {
    expect(EVIDENTIAL_CLASSES.map(classRank)).toEqual([0, 1, 2]);
    expect(maxClass("STRUCTURED", "NARRATIVE")).toBe("STRUCTURED");
    expect(maxClassOf([])).toBe("NARRATIVE");
    expect(isRatchetUp("STRUCTURED", "NARRATIVE")).toBe(false);
    expect(isRatchetUp("STRUCTURED", "SIDE_EFFECTING")).toBe(true);
  });

  it("maxClass is monotone, commutative, idempotent and never below either argument", () => {
    const c = fc.constantFrom(...EVIDENTIAL_CLASSES);
    fc.assert(
      fc.property(c, c, c, (a, b, x) => {
        const m = maxClass(a, b);
        const monotone = classRank(a) <= classRank(x) ? classRank(maxClass(a, b)) <= classRank(maxClass(x, b)) : true;
        return (
          m === maxClass(b, a) && maxClass(a, a) === a && classRank(m) >= classRank(a) && classRank(m) >= classRank(b) && monotone
        );
      }),
    );
  });
});

describe("lineage over three generations", () => {
  // o1: a side-effecting write; o2: a structured read with a number; o3: chat.
  const o1Atoms = [atom("TOOL_CALL", "write_file"), atom("PATH", "/etc/app/conf.yaml", { effect: "FILE_WRITE" })];
  const o2Atoms = [atom("PATH", "/work/app/README.md"), atom("NUMBER", "42 lines")];
  const facts: Record<string, LineageSpanFacts> = {
    o1: original("SIDE_EFFECTING", o1Atoms),
    o2: original("STRUCTURED", o2Atoms, originals.expiringAt(daysAfter(T0, 100))),
    o3: original("NARRATIVE", []),
    // gen 1 keeps 3 of 4 root atoms in its text.
    g1: summary("write_file wrote /etc/app/conf.yaml after reading /work/app/README.md."),
    // gen 2 keeps 1 (the README path) and names one more (a path) in its manifest.
    g2: summary("Updated config after reading /work/app/README.md.", { omitted: [{ kind: "PATH", count: 1 }] }),
    // gen 3 keeps nothing and names nothing.
    g3: summary("Worked on the app."),
  };
  const graph = {
    g1: [link("o1"), link("o2")],
    g2: [link("g1"), link("o3")],
    g3: [link("g2")],
  };

  it("computes roots, generation, class and provenance", () => {
    const l = computeLineage("g3", graph, facts, policy, now);
    expect(l.roots.sort()).toEqual(["o1", "o2", "o3"]);
    expect(l.generation).toBe(3);
    expect(l.class).toBe("SIDE_EFFECTING");
    expect(l.provenance).toBe("EXPIRING"); // o2's original expires before its horizon
    expect(computeLineage("g1", graph, facts, policy, now).generation).toBe(1);
  });

  it("reports fidelity dropping with each generation", () => {
    const l = computeLineage("g3", graph, facts, policy, now);
    expect(l.fidelity).toBe(0);
    expect(l.fidelityByGeneration).toEqual([
      { generation: 0, fidelity: 1, summaryIds: [] },
      { generation: 1, fidelity: 3 / 4, summaryIds: ["g1"] },
      { generation: 2, fidelity: 2 / 4, summaryIds: ["g2"] },
      { generation: 3, fidelity: 0, summaryIds: ["g3"] },
    ]);
    const fs = l.fidelityByGeneration.map((g) => g.fidelity);
    for (let i = 1; i < fs.length; i++) expect(fs[i]!).toBeLessThanOrEqual(fs[i - 1]!);
  });

  it("an honest summary of summaries that carries its omissions forward keeps full fidelity", () => {
    const rootAtoms = [...o1Atoms, ...o2Atoms];
    const honest = makeHonestSummary(rootAtoms, "Worked on the app.", {
      spanId: "g2",
      byteStart: 0,
      byteEnd: 1,
      sha256: "f".repeat(64),
    });
    const l = computeLineage(
      "g3",
      graph,
      { ...facts, g3: { ...summary(honest.text), omissions: honest.omissions! } },
      policy,
      now,
    );
    expect(l.fidelity).toBe(1);
  });

  it("reads a manifest line from the text when no structured manifest came", () => {
    const l = computeLineage(
      "g3",
      graph,
      { ...facts, g3: summary("Worked on the app.\n[omitted: 2 paths; original: g2@0-9 sha256:ffffffffffff]") },
      policy,
      now,
    );
    expect(l.fidelity).toBe(2 / 4);
  });

  it("a root reached only through a pointerless link counts as NONE", () => {
    const g = { g1: [link("o1"), link("o2", false)], g2: [link("g1")] };
    const l = computeLineage("g2", g, facts, policy, now);
    expect(l.rootProvenance.find((r) => r.spanId === "o2")).toMatchObject({ reachableByPointer: false, status: "NONE" });
    expect(l.rootProvenance.find((r) => r.spanId === "o1")).toMatchObject({ reachableByPointer: true, status: "DURABLE" });
    expect(l.provenance).toBe("NONE");
    // A pointerless link higher up cuts every root below it.
    const cut = computeLineage("g2", { g1: [link("o1")], g2: [link("g1", false)] }, facts, policy, now);
    expect(cut.provenance).toBe("NONE");
  });

  it("a root reachable by one fully pointed path counts with its own status", () => {
    const g = { g1: [link("o1", false)], g2: [link("g1"), link("o1")] };
    expect(computeLineage("g2", g, facts, policy, now).provenance).toBe("DURABLE");
  });

  it("lost roots make the summary LOST", () => {
    const l = computeLineage(
      "g1",
      graph,
      { ...facts, o1: original("SIDE_EFFECTING", o1Atoms, originals.deleted()) },
      policy,
      now,
    );
    expect(l.provenance).toBe("LOST");
  });

  it("computes all lineages at once", () => {
    const all = computeAllLineages(graph, facts, policy, now);
    expect([...all.keys()].sort()).toEqual(["g1", "g2", "g3"]);
    expect(all.get("g2")!.generation).toBe(2);
  });

  it("a summary that replaced nothing has no roots, generation 1, provenance NONE", () => {
    const l = computeLineage("e", { e: [] }, { e: summary("x") }, policy, now);
    expect(l).toMatchObject({ roots: [], generation: 1, class: "NARRATIVE", provenance: "NONE", fidelity: 1 });
  });
});

describe("lineage defences", () => {
  it("rejects cycles instead of looping", () => {
    const g = { a: [link("b")], b: [link("c")], c: [link("a")] };
    const facts = { a: summary("a"), b: summary("b"), c: summary("c") };
    expect(() => computeLineage("a", g, facts, policy, now)).toThrow(LineageError);
    try {
      computeLineage("a", g, facts, policy, now);
    } catch (e) {
      expect((e as LineageError).cycle).toEqual(["a", "b", "c", "a"]);
    }
    expect(() => computeLineage("s", { s: [link("s")] }, { s: summary("s") }, policy, now)).toThrow(/cycle/);
  });

  it("rejects a root without facts", () => {
    expect(() => computeLineage("s", { s: [link("ghost")] }, { s: summary("s") }, policy, now)).toThrow(
      /no facts for span ghost/,
    );
  });

  it("handles a chain thousands of generations deep without overflowing the stack", () => {
    const depth = 5000;
    const graph = new Map<string, LineageLink[]>();
    const facts = new Map<string, LineageSpanFacts>([["o", original("STRUCTURED", [atom("NUMBER", "7")])]]);
    for (let i = 1; i <= depth; i++) {
      graph.set(`s${i}`, [link(i === 1 ? "o" : `s${i - 1}`)]);
      facts.set(`s${i}`, summary("seven: 7"));
    }
    const l = computeLineage(`s${depth}`, graph, facts, policy, now);
    expect(l.generation).toBe(depth);
    expect(l.roots).toEqual(["o"]);
    expect(l.fidelity).toBe(1);
  });
});

describe("lineage properties", () => {
  it("class is never below any root's class, and generation exceeds every parent's", () => {
    const arb = fc.array(fc.constantFrom(...EVIDENTIAL_CLASSES), { minLength: 1, maxLength: 6 }).chain((rootClasses) =>
      fc.record({
        rootClasses: fc.constant(rootClasses),
        // Summary i replaces a non-empty subset of originals and earlier summaries: a DAG by construction.
        summaries: fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        pointers: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
      }),
    );
    fc.assert(
      fc.property(arb, ({ rootClasses, summaries, pointers }) => {
        const facts: Record<string, LineageSpanFacts> = {};
        rootClasses.forEach((c, i) => (facts[`o${i}`] = original(c, [])));
        const graph: Record<string, LineageLink[]> = {};
        summaries.forEach((picks, i) => {
          const pool = [...rootClasses.map((_, j) => `o${j}`), ...summaries.slice(0, i).map((_, j) => `s${j}`)];
          graph[`s${i}`] = [...new Set(picks.map((p) => pool[p % pool.length]!))].map((id, k) =>
            link(id, pointers[(i * 4 + k) % 40]!),
          );
          facts[`s${i}`] = summary("text");
        });
        const all = computeAllLineages(graph, facts, policy, now);
        for (const [id, l] of all) {
          for (const r of l.roots) if (classRank(l.class) < classRank(facts[r]!.class)) return false;
          for (const parent of graph[id]!) {
            const pl = all.get(parent.spanId);
            if (pl && l.generation <= pl.generation) return false;
            if (pl && classRank(l.class) < classRank(pl.class)) return false;
          }
        }
        return true;
      }),
      { numRuns: 500 },
    );
  });
});
