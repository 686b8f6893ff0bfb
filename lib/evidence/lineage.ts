/**
 * Lineage of summaries of summaries (docs/design.md, "The gate", last point). A summary's roots are
 * the originals it transitively replaces; its class is the highest of theirs (class never goes
 * down by summarising), its provenance the weakest of theirs, its generation one more than its
 * deepest parent, and its fidelity the share of root atoms its text or manifest still accounts
 * for. Fidelity is reported per generation because each generation quietly loses more.
 */
import { maxClassOf } from "./classes";
import { countByKind, manifestCounts, parseManifestText } from "./manifest";
import { provenanceStatus, weakestStatus } from "./provenance";
import { prepareSummaryText, splitKeptDropped } from "./summary-text";
import type { Atom, EvidentialClass, OmissionManifest, OriginalFacts, ProvenanceStatus, RetentionPolicy } from "./types";

/** One "replaced" edge: the summary replaced `spanId`, with or without a provenance pointer. */
export interface LineageLink {
  spanId: string;
  hasPointer: boolean;
}

/** Summary span id -> the spans it replaced. A span that is not a key is an original. */
export type LineageGraph = ReadonlyMap<string, readonly LineageLink[]> | Readonly<Record<string, readonly LineageLink[]>>;

export interface LineageSpanFacts {
  class: EvidentialClass;
  atoms: readonly Atom[];
  original: OriginalFacts | null;
  occurredAt: Date;
  /** Summaries: their text (fidelity looks for root atoms in it). */
  text?: string;
  /** Summaries: their omission manifest; when absent, a manifest line in the text is read instead. */
  omissions?: OmissionManifest;
}

export type LineageFacts = ReadonlyMap<string, LineageSpanFacts> | Readonly<Record<string, LineageSpanFacts>>;

export interface RootProvenance {
  spanId: string;
  /** Some path from the summary to this root has a pointer on every link. */
  reachableByPointer: boolean;
  status: ProvenanceStatus;
}

export interface GenerationFidelity {
  generation: number;
  /** Root atoms kept or named / root atoms, over the summaries of this generation; 1 for originals. */
  fidelity: number;
  summaryIds: string[];
}

export interface Lineage {
  summaryId: string;
  roots: string[];
  generation: number;
  class: EvidentialClass;
  provenance: ProvenanceStatus;
  rootProvenance: RootProvenance[];
  /** This summary's fidelity: share of its root atoms still in its text or named in its manifest. */
  fidelity: number;
  /** Generation 0 (the originals) up to this summary's generation, over every summary in its lineage. */
  fidelityByGeneration: GenerationFidelity[];
}

export class LineageError extends Error {
  constructor(
    message: string,
    /** For a cycle: the span ids around it, first repeated at the end. */
    readonly cycle?: string[],
  ) {
    super(message);
    this.name = "LineageError";
  }
}

interface NodeInfo {
  generation: number;
  /** Root id -> reachable through pointers on every link of at least one path. */
  roots: Map<string, boolean>;
}

/** The lineage of one summary. Throws `LineageError` on a cycle or a root without facts. */
export function computeLineage(
  summaryId: string,
  graph: LineageGraph,
  facts: LineageFacts,
  policy: RetentionPolicy,
  now: Date,
): Lineage {
  return new LineageWalker(graph, facts, policy, now).lineage(summaryId);
}

/** Lineages of every summary in the graph, sharing the walk. */
export function computeAllLineages(
  graph: LineageGraph,
  facts: LineageFacts,
  policy: RetentionPolicy,
  now: Date,
): Map<string, Lineage> {
  const walker = new LineageWalker(graph, facts, policy, now);
  const out = new Map<string, Lineage>();
  for (const id of keysOf(graph)) out.set(id, walker.lineage(id));
  return out;
}

class LineageWalker {
  private readonly nodes = new Map<string, NodeInfo>();
  private readonly fidelities = new Map<string, { accounted: number; total: number }>();

  constructor(
    private readonly graph: LineageGraph,
    private readonly facts: LineageFacts,
    private readonly policy: RetentionPolicy,
    private readonly now: Date,
  ) {}

  lineage(summaryId: string): Lineage {
    const info = this.node(summaryId);
    const rootProvenance: RootProvenance[] = [...info.roots].map(([spanId, reachableByPointer]) => {
      const f = this.factsOf(spanId);
      const status: ProvenanceStatus = reachableByPointer
        ? provenanceStatus({ hasPointer: true, original: f.original, occurredAt: f.occurredAt }, this.policy, this.now)
        : "NONE"; // a root reached only through a pointerless link cannot be found from the summary
      return { spanId, reachableByPointer, status };
    });
    const own = this.fidelity(summaryId);
    return {
      summaryId,
      roots: rootProvenance.map((r) => r.spanId),
      generation: info.generation,
      class: maxClassOf(rootProvenance.map((r) => this.factsOf(r.spanId).class)),
      provenance: weakestStatus(rootProvenance.map((r) => r.status)),
      rootProvenance,
      fidelity: ratio(own),
      fidelityByGeneration: this.byGeneration(summaryId),
    };
  }

  /** Post-order walk without recursion, so a long chain of generations cannot overflow the stack. */
  private node(start: string): NodeInfo {
    const done = this.nodes.get(start);
    if (done) return done;
    const onPath = new Set<string>();
    const stack: Array<{ id: string; next: number }> = [{ id: start, next: 0 }];
    onPath.add(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const links = linksOf(this.graph, top.id) ?? [];
      if (top.next < links.length) {
        const child = links[top.next++]!.spanId;
        if (onPath.has(child)) {
          const from = stack.findIndex((s) => s.id === child);
          const cycle = [...stack.slice(from).map((s) => s.id), child];
          throw new LineageError(`summary lineage has a cycle: ${cycle.join(" -> ")}`, cycle);
        }
        if (linksOf(this.graph, child) !== undefined && !this.nodes.has(child)) {
          stack.push({ id: child, next: 0 });
          onPath.add(child);
        }
        continue;
      }
      stack.pop();
      onPath.delete(top.id);
      this.nodes.set(top.id, this.combine(links));
    }
    return this.nodes.get(start)!;
  }

  private combine(links: readonly LineageLink[]): NodeInfo {
    let generation = 1;
    const roots = new Map<string, boolean>();
    const addRoot = (rootId: string, viaPointer: boolean) => roots.set(rootId, (roots.get(rootId) ?? false) || viaPointer);
    for (const link of links) {
      const child = this.nodes.get(link.spanId);
      if (child === undefined) {
        addRoot(link.spanId, link.hasPointer); // an original: generation 0
        continue;
      }
      generation = Math.max(generation, child.generation + 1);
      for (const [rootId, viaPointer] of child.roots) addRoot(rootId, link.hasPointer && viaPointer);
    }
    return { generation, roots };
  }

  private fidelity(summaryId: string): { accounted: number; total: number } {
    const cached = this.fidelities.get(summaryId);
    if (cached) return cached;
    const rootAtoms: Atom[] = [];
    for (const rootId of this.node(summaryId).roots.keys()) rootAtoms.push(...this.factsOf(rootId).atoms);
    const f = getFacts(this.facts, summaryId);
    const text = f?.text ?? "";
    const { kept, dropped } = splitKeptDropped(rootAtoms, prepareSummaryText(text));
    const manifest = f?.omissions ?? parseManifestText(text)?.manifest;
    const named = manifest ? manifestCounts(manifest) : new Map();
    let namedCount = 0;
    // A manifest accounts for at most as many atoms of a kind as were really dropped.
    for (const { kind, count } of countByKind(dropped)) namedCount += Math.min(count, named.get(kind) ?? 0);
    const result = { accounted: kept.length + namedCount, total: rootAtoms.length };
    this.fidelities.set(summaryId, result);
    return result;
  }

  private byGeneration(summaryId: string): GenerationFidelity[] {
    const gens = new Map<number, { accounted: number; total: number; summaryIds: string[] }>();
    for (const id of this.summariesBelow(summaryId)) {
      const g = this.nodes.get(id)!.generation;
      const f = this.fidelity(id);
      const agg = gens.get(g) ?? { accounted: 0, total: 0, summaryIds: [] };
      agg.accounted += f.accounted;
      agg.total += f.total;
      agg.summaryIds.push(id);
      gens.set(g, agg);
    }
    const out: GenerationFidelity[] = [{ generation: 0, fidelity: 1, summaryIds: [] }];
    for (const g of [...gens.keys()].sort((a, b) => a - b)) {
      const agg = gens.get(g)!;
      out.push({ generation: g, fidelity: ratio(agg), summaryIds: agg.summaryIds.sort() });
    }
    return out;
  }

  /** The summary and every summary it transitively replaced (the walk has already ruled out cycles). */
  private summariesBelow(summaryId: string): Set<string> {
    const seen = new Set<string>([summaryId]);
    const todo = [summaryId];
    while (todo.length > 0) {
      for (const l of linksOf(this.graph, todo.pop()!) ?? []) {
        if (!seen.has(l.spanId) && linksOf(this.graph, l.spanId) !== undefined) {
          seen.add(l.spanId);
          todo.push(l.spanId);
        }
      }
    }
    return seen;
  }

  private factsOf(spanId: string): LineageSpanFacts {
    const f = getFacts(this.facts, spanId);
    if (!f) throw new LineageError(`no facts for span ${spanId}: a root's class and original must be known`);
    return f;
  }
}

/** Nothing to lose is full fidelity. */
function ratio(f: { accounted: number; total: number }): number {
  return f.total === 0 ? 1 : f.accounted / f.total;
}

function isMap<V>(x: ReadonlyMap<string, V> | Readonly<Record<string, V>>): x is ReadonlyMap<string, V> {
  return x instanceof Map;
}

function linksOf(graph: LineageGraph, id: string): readonly LineageLink[] | undefined {
  if (isMap(graph)) return graph.get(id);
  return Object.hasOwn(graph, id) ? graph[id] : undefined;
}

function getFacts(facts: LineageFacts, id: string): LineageSpanFacts | undefined {
  if (isMap(facts)) return facts.get(id);
  return Object.hasOwn(facts, id) ? facts[id] : undefined;
}

function keysOf(graph: LineageGraph): string[] {
  return isMap(graph) ? [...graph.keys()] : Object.keys(graph);
}
