/**
 * Compactions of the scale seed: what the gate and reclamation would have written for a planned
 * compaction of a session's spans (summaries, links, decisions, refusals, transcript states).
 */
import { randomUUID } from "node:crypto";
import { sha256Hex } from "@/lib/core/hash";
import { analyzeSpan } from "@/lib/evidence/analyze";
import { maxClassOf } from "@/lib/evidence/classes";
import { evaluateGate, type GateDecision } from "@/lib/evidence/gate";
import { compareSummary, countByKind, makeHonestSummary } from "@/lib/evidence/manifest";
import { DAY_MS, expiresAtFor } from "@/lib/evidence/policy";
import type { Atom, CandidateSummary, EvidentialClass, RetentionPolicy, SpanKind, TranscriptState } from "@/lib/evidence/types";
import { atomJson } from "@/lib/server/gate";
import { field, line } from "@/lib/db/copy";
import { transcriptStateFor } from "@/lib/evidence/transcript-state";
import type { Verdict } from "@/lib/evidence/types";
import type { TableName } from "./columns";
import type { SessionPlan } from "./plan";
import type { SessionProfile } from "./transcript";

export interface BuildContext {
  projectId: string;
  policy: RetentionPolicy;
  now: Date;
}

export interface Item {
  id: string;
  seq: number | null;
  kind: SpanKind;
  role: string | null;
  toolName: string | null;
  toolInput: string | null;
  exitCode: number | null;
  occurredAt: Date;
  cls: EvidentialClass;
  classReasons: string;
  body: Uint8Array;
  sha256: string;
  atoms: Atom[];
  state: TranscriptState;
  hasPointer: boolean;
  generation: number;
  corrupt: boolean;
  /** Summaries: their link rows, written with them. */
  links: string[];
  /** The summary that replaced this span, for the sweeper's "moved to LOST" record. */
  replacedBy: string | null;
  /** What that summary dropped of this span's atoms, as its link records it. */
  replacedDropped: string | null;
}

/** What a retention owner shortened structured and side-effecting TTLs to in "shortened" sessions. */
export const SHORTENED_TTL_DAYS = 90;

const enc = new TextEncoder();

/**
 * One compaction as the runtime asked for it (or did it): the gate judges the selection as it stood
 * at `at`, then the states, summary spans, links, decisions and refusals reclamation would record.
 * Returns the summary spans created, oldest first.
 */
export function compact(
  selection: Item[],
  plan: SessionPlan,
  profile: SessionProfile,
  ctx: BuildContext,
  at: Date,
  requester: string,
  sessionId: string,
  out: Record<TableName, string[]>,
  r: () => number,
): Item[] {
  if (selection.length === 0) return [];
  const text = summaryText(selection, profile, r);
  const pointers = (items: Item[]) =>
    items.map((s) => ({ spanId: s.id, byteStart: 0, byteEnd: s.body.byteLength, sha256: s.sha256 }));
  const made: Item[] = [];
  const run = (items: Item[], summary: CandidateSummary, observed: boolean) => {
    const summaryItem = reclaimItems(items, summary, observed, plan, profile, ctx, at, requester, sessionId, out);
    if (summaryItem) made.push(summaryItem);
  };
  switch (plan.compaction) {
    case "gated":
      run(selection, { text, pointers: pointers(selection) }, false);
      break;
    case "honest":
      run(
        selection,
        makeHonestSummary(
          selection.flatMap((s) => s.atoms),
          text,
          pointers(selection),
        ),
        false,
      );
      break;
    case "observed":
      run(selection, { text, pointers: [] }, true);
      break;
    case "pointerless": {
      run(selection, { text, pointers: [] }, false);
      const refused = selection.filter((s) => s.state === "PRESERVED");
      if (refused.length > 0 && r() < 0.5) {
        const retry = summaryText(refused, profile, r);
        run(refused, { text: retry, pointers: pointers(refused) }, false);
      }
      break;
    }
    case "none":
      break;
  }
  return made;
}

function reclaimItems(
  items: Item[],
  summary: CandidateSummary,
  observed: boolean,
  plan: SessionPlan,
  profile: SessionProfile,
  ctx: BuildContext,
  at: Date,
  requester: string,
  sessionId: string,
  out: Record<TableName, string[]>,
): Item | null {
  const decisions: GateDecision[] = evaluateGate({
    spans: items.map((s) => ({
      id: s.id,
      class: s.cls,
      atoms: s.atoms,
      hasPointer: s.hasPointer,
      original: {
        present: true,
        hashMatches: !s.corrupt,
        expiresAt: expiryOf(s, plan, ctx.policy),
        pinned: plan.retention === "pinned",
      },
      occurredAt: s.occurredAt,
      sha256: s.sha256,
    })),
    summary,
    policy: ctx.policy,
    now: at,
  });
  const byId = new Map(items.map((s) => [s.id, s]));
  const stateFor = (verdict: Verdict) => transcriptStateFor(verdict, observed);
  const replaced = observed ? decisions : decisions.filter((d) => d.verdict !== "REFUSE");
  let summaryItem: Item | null = null;
  if (replaced.length > 0) {
    const body = enc.encode(summary.text);
    const analysis = analyzeSpan({ body, kind: "SUMMARY", cwd: profile.cwd });
    const parents = replaced.map((d) => byId.get(d.spanId)!);
    const cls = maxClassOf([analysis.classification.class, ...parents.map((p) => p.cls)]);
    summaryItem = {
      id: randomUUID(),
      seq: null,
      kind: "SUMMARY",
      role: null,
      toolName: null,
      toolInput: null,
      exitCode: null,
      occurredAt: at,
      cls,
      classReasons: JSON.stringify([
        ...analysis.classification.reasons,
        { class: cls, rule: "summary.roots", detail: `Highest class among the ${parents.length} spans it replaces` },
      ]),
      body,
      sha256: sha256Hex(body),
      atoms: analysis.atoms,
      state: "VERBATIM",
      hasPointer: true,
      generation: 1 + Math.max(...parents.map((p) => p.generation)),
      corrupt: false,
      links: [],
      replacedBy: null,
      replacedDropped: null,
    };
    for (const parent of parents) {
      const pointer = summary.pointers.find((p) => p.spanId === parent.id && p.sha256 === parent.sha256);
      const { dropped } = compareSummary(parent.atoms, summary.text);
      parent.replacedDropped = JSON.stringify(countByKind(dropped));
      summaryItem.links.push(
        line([
          sessionId,
          summaryItem.id,
          parent.id,
          field(pointer?.byteStart ?? null),
          field(pointer?.byteEnd ?? null),
          field(pointer?.sha256 ?? null),
          field(parent.replacedDropped),
        ]),
      );
      parent.replacedBy = summaryItem.id;
    }
  }
  const reclamationId = randomUUID();
  for (const decision of decisions) {
    const span = byId.get(decision.spanId)!;
    const pointed = summary.pointers.some((p) => p.spanId === span.id && p.sha256 === span.sha256);
    span.state = stateFor(decision.verdict);
    if (span.state !== "PRESERVED") span.hasPointer = pointed;
    const decisionId = randomUUID();
    const reason =
      observed && decision.verdict === "REFUSE"
        ? `Compacted by the runtime without the gate, which would have refused: ${decision.reason}`
        : decision.reason;
    out.gate_decision.push(
      line([
        sessionId,
        decisionId,
        span.id,
        reclamationId,
        decision.verdict,
        decision.cell.class,
        decision.cell.provenance,
        field(reason),
        field(requester),
        "f",
        field(at),
      ]),
    );
    if (decision.verdict === "REFUSE" && !observed) {
      out.refusal_event.push(
        line([
          sessionId,
          randomUUID(),
          ctx.projectId,
          span.id,
          decisionId,
          decision.cell.class,
          decision.cell.provenance,
          field(decision.reason),
          field(requester),
          field(JSON.stringify((decision.atomsAtRisk ?? []).map(atomJson))),
          field(at),
          reclamationId,
          field(span.seq),
        ]),
      );
    }
  }
  // The compaction as an event of its own, as reclaim records it (its id is the decisions' reclamation id).
  out.compaction.push(
    line([
      sessionId,
      reclamationId,
      ctx.projectId,
      field(summaryItem?.id ?? null),
      observed ? "f" : "t",
      field(replaced.length),
      field(decisions.filter((d) => d.verdict === "REFUSE").length),
      field(requester),
      field(at),
    ]),
  );
  return summaryItem;
}

/** What a compactor's summary says: the gist, and a few of the paths and numbers it kept. */
function summaryText(items: Item[], profile: SessionProfile, r: () => number): string {
  const paths = [...new Set(items.flatMap((s) => s.atoms.filter((a) => a.kind === "PATH" && !a.negated).map((a) => a.text)))];
  const kept = paths.filter(() => r() < 0.15).slice(0, 6);
  const tests = items
    .flatMap((s) => s.atoms.filter((a) => a.kind === "NUMBER" && a.text.endsWith("passed")).map((a) => a.text))
    .slice(0, 1);
  return (
    `Earlier in this session the agent worked to ${profile.topic}. ` +
    (kept.length > 0 ? `It read and edited ${kept.join(", ")}. ` : "It inspected and edited several source files. ") +
    (tests.length > 0 ? `The last test run reported ${tests[0]}. ` : "") +
    `It ran the test suite several times and kept notes on what failed.`
  );
}

export function expiryOf(item: Item, plan: SessionPlan, policy: RetentionPolicy): Date {
  if (plan.retention === "shortened" && item.cls !== "NARRATIVE")
    return new Date(item.occurredAt.getTime() + SHORTENED_TTL_DAYS * DAY_MS);
  return expiresAtFor(item.cls, item.occurredAt, policy);
}
