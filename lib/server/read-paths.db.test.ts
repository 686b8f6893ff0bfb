/**
 * The indexed read paths against the pure definitions, on varied data: every edge of provenance
 * (pinned and expired, expiry exactly now and exactly at the horizon, damaged bytes, deleted
 * bytes, no original row, no pointer), summaries of summaries, pointerless and honest summaries,
 * a cycle of links, a summary without links, seq gaps, a span without a seq, an unknown working
 * directory, and several clocks. The references load every span naively, hash the bytes live,
 * and call the pure engine (spanStatuses, answerQuestion), as the server did before it used
 * indexes.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { KindCount } from "@/lib/evidence/manifest";
import { DAY_MS, DEFAULT_POLICY } from "@/lib/evidence/policy";
import { gridTally } from "@/lib/evidence/safety";
import { isRetrievable } from "@/lib/evidence/provenance";
import {
  answerQuestion,
  CANNED_QUESTION_IDS,
  cannedQuestionsFor,
  type EvidencePredicate,
  type QuestionSpan,
} from "@/lib/evidence/questions";
import { spanStatuses } from "@/lib/evidence/span-statuses";
import {
  EVIDENTIAL_CLASSES,
  PROVENANCE_STATUSES,
  type OriginalFacts,
  type ProvenanceStatus,
  type RetentionPolicy,
} from "@/lib/evidence/types";
import { SWEEPER } from "@/lib/server/audit/write";
import { candidateSummaryFor } from "@/lib/server/gate/candidate-summary";
import { sha256Hex } from "@/lib/core/hash";
import { askEvidenceQuestion, type EvidenceQueryInput } from "@/lib/server/questions/ask";
import { appendSpans, upsertSession, type SpanSubmission } from "@/lib/server/ingest/append";
import { reclaim } from "@/lib/server/gate/reclaim";
import { loadAtoms } from "@/lib/server/atoms";
import { policyToRow } from "@/lib/server/retention/policy";
import { pinOriginal } from "@/lib/server/provenance/operator-acts";
import { listSessionPage } from "@/lib/server/dashboard/session-list";
import { getSpanDetail } from "@/lib/server/dashboard/span-detail";
import { countGrid, sessionGrid, sessionSpanStatuses, spanStatusOf } from "@/lib/server/provenance/span-status";
import { sessionTimeline, timelineTotal } from "@/lib/server/provenance/timeline";
import { sweep } from "@/lib/server/retention/sweeper";
import { makeTestProject } from "@/lib/server/admin/test-project";

const T = new Date("2026-01-01T00:00:00.000Z");
const at = (minutes: number) => new Date(T.getTime() + minutes * 60_000);
const enc = (s: string) => new TextEncoder().encode(s);
const policy = DEFAULT_POLICY;

/** Clocks to judge at: before and after narrative, structured and side-effecting TTLs run out. */
const CLOCKS = [1, 20, 31, 200, 399, 401, 800].map((d) => new Date(T.getTime() + d * DAY_MS));

function call(seq: number, minutes: number, toolName: string, input: Record<string, unknown>): SpanSubmission {
  return { seq, kind: "TOOL_CALL", toolName, toolInput: input, occurredAt: at(minutes), body: enc(JSON.stringify(input)) };
}
function bash(seq: number, minutes: number, command: string, ended: Partial<SpanSubmission> = {}): SpanSubmission {
  return { ...call(seq, minutes, "Bash", { command, description: "run it" }), ...ended };
}
function message(seq: number, minutes: number, text: string): SpanSubmission {
  return { seq, kind: "MESSAGE", role: "assistant", occurredAt: at(minutes), body: enc(text) };
}
function result(seq: number, minutes: number, text: string): SpanSubmission {
  return { seq, kind: "TOOL_RESULT", role: "tool", toolName: "Bash", occurredAt: at(minutes), body: enc(text) };
}

/** A transcript with everything the questions ask about, and the chatter around it. */
function transcript(offset: number): SpanSubmission[] {
  const m = (i: number) => offset + i;
  return [
    message(0, m(0), "Let me look at the configuration first."),
    call(1, m(1), "write_file", { path: "/etc/app/conf.yaml", mode: "overwrite" }),
    result(2, m(2), "wrote 312 bytes to /etc/app/conf.yaml"),
    bash(3, m(3), "echo 'export PATH=$HOME/bin:$PATH' >> ~/.bashrc"),
    bash(4, m(4), "sudo apt-get install -y nginx", { outcome: "FAILED", exitCode: 100 }),
    bash(5, m(5), "npm install zod@4.1.0"),
    bash(6, m(6), "sudo systemctl restart nginx", { outcome: "SUCCEEDED", exitCode: 0 }),
    message(7, m(7), "I did not write /etc/hosts and no files were changed in migrations/."),
    call(8, m(8), "Edit", { file_path: "/home/dev/.ssh/config", old_string: "Host a", new_string: "Host b" }),
    call(9, m(9), "Write", { file_path: "notes/todo.md", content: "- ship it" }),
    call(10, m(10), "Write", { file_path: "/tmp/out.txt", content: "42" }),
    bash(11, m(11), "curl -s -X POST https://api.example.com/v1/orders -d '{}'"),
    call(12, m(12), "shell", {
      command: ["bash", "-lc", "make deploy"],
      with_escalated_permissions: true,
      workdir: "/home/dev/app",
    }),
    result(13, m(13), "Tests 48 passed, 2 failed in 3.21s; see src/checkout/session.ts:88"),
    message(14, m(14), "Summary so far: the timeout is now 30s (SHOP-1182)."),
    bash(15, m(15), "rg -n TODO src/"),
    result(16, m(16), "src/a.ts:1: TODO fix\nsrc/b.ts:9: TODO test"),
    bash(17, m(17), "rm -f /var/lib/app/cache.db"),
    message(18, m(18), "Done."),
    call(19, m(19), "Write", { file_path: "/usr/local/bin/deploy.sh", content: "#!/bin/sh" }),
    // Calls of MCP tools whose effects are not known (no read or write verb in their names): one
    // that only blocks, one whose escalation argument a predicate cites, one naming a system path.
    // Not in the first session, which they would keep from ever answering NO.
    ...(offset === 0 ? [] : mcpCalls(offset)),
  ];
}

function mcpCalls(offset: number): SpanSubmission[] {
  const m = (i: number) => offset + i;
  return [
    { ...call(30, m(30), "mcp__sentry__resolve_issue", { issueId: "SHOP-1182" }), outcome: "SUCCEEDED" },
    {
      ...call(31, m(31), "mcp__ops__rollout", { sandbox_permissions: "require_escalated", target: "prod" }),
      outcome: "FAILED",
      exitCode: 0,
    },
    { ...call(32, m(32), "mcp__files__sync_path", { path: "/etc/app/conf.yaml" }), outcome: "UNKNOWN" },
  ];
}

interface Fixture {
  projectId: string;
  sessions: string[];
}

async function ids(sessionId: string) {
  const spans = await db().span.findMany({ where: { sessionId }, select: { id: true, seq: true, kind: true } });
  return {
    bySeq: new Map(spans.filter((s) => s.seq !== null).map((s) => [s.seq!, s.id])),
    summaries: spans.filter((s) => s.kind === "SUMMARY").map((s) => s.id),
  };
}

async function compact(
  projectId: string,
  sessionId: string,
  spanIds: string[],
  text: string,
  options: { pointers: boolean; honest?: boolean; observed?: boolean },
  minutes: number,
) {
  const summary = await candidateSummaryFor(sessionId, spanIds, text, options);
  return reclaim({
    projectId,
    sessionId,
    selection: { spanIds },
    summary,
    dryRun: false,
    requester: "test",
    at: at(minutes),
    observed: options.observed,
  });
}

async function setExpiry(sessionId: string, spanId: string, expiresAt: Date) {
  await db()
    .$executeRaw`update span_original set expires_at = ${expiresAt.toISOString()}::timestamp where session_id = ${sessionId}::uuid and span_id = ${spanId}::uuid`;
}

async function build(): Promise<Fixture> {
  const project = await makeTestProject("readpaths");
  const sessions: string[] = [];
  const make = async (label: string, cwd: string | null, offset: number, drop: (s: SpanSubmission) => boolean = () => false) => {
    const { session } = await upsertSession(project.id, { externalId: `${label}-${randomUUID()}`, runtime: "claude-code", cwd });
    await appendSpans(
      project.id,
      session.id,
      transcript(offset).filter((s) => !drop(s)),
    );
    sessions.push(session.id);
    return session.id;
  };

  // A: gated compactions with pointers, a pointerless one, an honest one over EXPIRING spans, and a summary of a summary.
  const a = await make("a", "/home/dev/app", 0);
  let s = await ids(a);
  await compact(
    project.id,
    a,
    [0, 1, 2, 3].map((q) => s.bySeq.get(q)!),
    "The agent configured the app in /etc/app/conf.yaml.",
    { pointers: true },
    30,
  );
  await compact(
    project.id,
    a,
    [4, 5, 6, 7].map((q) => s.bySeq.get(q)!),
    "Installed packages and restarted a service.",
    { pointers: false },
    31,
  );
  for (const q of [8, 9, 10]) await setExpiry(a, s.bySeq.get(q)!, new Date(T.getTime() + 90 * DAY_MS));
  await compact(
    project.id,
    a,
    [8, 9, 10].map((q) => s.bySeq.get(q)!),
    "Edited some files.",
    { pointers: true, honest: true },
    32,
  );
  s = await ids(a);
  await compact(
    project.id,
    a,
    [s.summaries[0]!, s.bySeq.get(11)!, s.bySeq.get(12)!],
    "Earlier work on the deployment, summarised again.",
    { pointers: true },
    33,
  );
  // A summary of that summary alone (the engine cannot place it: no seq of its own or below), and
  // one over it and a span, which that leaves unbacked.
  const latest = async () =>
    (
      await db().span.findFirstOrThrow({
        where: { sessionId: a, kind: "SUMMARY" },
        orderBy: [{ generation: "desc" }, { occurredAt: "desc" }],
      })
    ).id;
  await compact(project.id, a, [await latest()], "The deployment work in /etc/app, once more.", { pointers: true }, 34);
  await compact(
    project.id,
    a,
    [await latest(), s.bySeq.get(13)!],
    "Everything so far, including /etc/app/conf.yaml and the tests.",
    { pointers: true },
    35,
  );

  // B: no working directory; a runtime that compacted without asking (no pointers).
  const b = await make("b", null, 100);
  s = await ids(b);
  await compact(
    project.id,
    b,
    [1, 2, 3, 17, 19, 30].map((q) => s.bySeq.get(q)!),
    "The agent wrote some system files.",
    { pointers: false, observed: true },
    140,
  );

  // C: seqs 10-12 never arrived; an imported summary without links; two summaries linked in a cycle.
  const c = await make("c", "/home/dev/app", 200, (x) => x.seq >= 10 && x.seq <= 12);
  const summaries = await appendSpans(project.id, c, [
    { seq: 20, kind: "SUMMARY", occurredAt: at(230), body: enc("Configured /etc/nginx/nginx.conf and restarted nginx.") },
    { seq: 21, kind: "SUMMARY", occurredAt: at(231), body: enc("Wrote /usr/local/bin/run.sh.") },
    { seq: 22, kind: "SUMMARY", occurredAt: at(232), body: enc("Nothing to report about /etc.") },
  ]);
  await db().summaryLink.createMany({
    data: [
      { sessionId: c, summarySpanId: summaries[0]!.id, replacedSpanId: summaries[1]!.id, pointerSha256: summaries[1]!.sha256 },
      { sessionId: c, summarySpanId: summaries[1]!.id, replacedSpanId: summaries[0]!.id, pointerSha256: summaries[0]!.sha256 },
    ],
  });
  s = await ids(c);
  await compact(
    project.id,
    c,
    [0, 1, 2].map((q) => s.bySeq.get(q)!),
    "Looked around and configured /etc/app/conf.yaml.",
    { pointers: true },
    240,
  );

  // D: a span stored without a seq (the engine never sees it), and originals in every state.
  const d = await make("d", "/home/dev/app", 300);
  s = await ids(d);
  await db().$executeRaw`
    insert into span (session_id, id, seq, kind, occurred_at, class, class_reasons, byte_length, sha256)
    values (${d}::uuid, ${randomUUID()}::uuid, null, 'MESSAGE', ${at(330).toISOString()}::timestamp, 'STRUCTURED', '[]', 0, ${"0".repeat(64)})`;
  await compact(
    project.id,
    d,
    [1, 3, 4, 6, 8, 17, 19, 32].map((q) => s.bySeq.get(q)!),
    "Changed system files.",
    { pointers: true },
    331,
  );
  // The span without a seq also sits under that summary.
  const dSummary = await db().span.findFirstOrThrow({ where: { sessionId: d, kind: "SUMMARY" } });
  const unsequenced = await db().span.findFirstOrThrow({ where: { sessionId: d, seq: null, kind: "MESSAGE" } });
  await db().summaryLink.create({
    data: { sessionId: d, summarySpanId: dSummary.id, replacedSpanId: unsequenced.id, pointerSha256: unsequenced.sha256 },
  });
  // Damaged bytes (a held original whose hash no longer matches), a deleted original row, a pin on
  // an expired original, an expiry exactly at one of the clocks and one exactly at the horizon.
  await db()
    .$executeRaw`update span_original set bytes = ${"tampered"}::bytea where session_id = ${d}::uuid and span_id = ${s.bySeq.get(1)!}::uuid`;
  await db()
    .$executeRaw`update span_original set bytes = ${"tampered"}::bytea where session_id = ${d}::uuid and span_id = ${s.bySeq.get(2)!}::uuid`;
  await db().spanOriginal.delete({ where: { sessionId_spanId: { sessionId: d, spanId: s.bySeq.get(3)! } } });
  await setExpiry(d, s.bySeq.get(4)!, new Date(T.getTime() - DAY_MS));
  await pinOriginal({ projectId: project.id, spanId: s.bySeq.get(4)! }, SWEEPER, "hold");
  await setExpiry(d, s.bySeq.get(6)!, CLOCKS[3]!);
  await pinOriginal({ projectId: project.id, spanId: s.bySeq.get(2)! }, SWEEPER, "hold damaged");
  const horizonOf = await db().span.findUniqueOrThrow({
    where: { sessionId_id: { sessionId: d, id: s.bySeq.get(8)! } },
    select: { occurredAt: true },
  });
  await setExpiry(d, s.bySeq.get(8)!, new Date(horizonOf.occurredAt.getTime() + policy.evidenceHorizonDays * DAY_MS));
  await setExpiry(d, s.bySeq.get(17)!, new Date(T.getTime() + 10 * DAY_MS));
  // The sweeper deletes what expired by day 35 (narrative originals, the short TTLs above).
  await sweep(new Date(T.getTime() + 35 * DAY_MS));
  await setExpiry(d, s.bySeq.get(19)!, new Date(T.getTime() + 30 * DAY_MS));
  return { projectId: project.id, sessions };
}

// ---- references: everything loaded, bytes hashed live, the pure engine decides ----------------

async function referenceFacts(sessionId: string) {
  const [spans, originals, links] = await Promise.all([
    db().span.findMany({
      where: { sessionId },
      select: {
        id: true,
        seq: true,
        kind: true,
        class: true,
        transcriptState: true,
        hasPointer: true,
        occurredAt: true,
        sha256: true,
        toolName: true,
        outcome: true,
        exitCode: true,
        byteLength: true,
      },
      orderBy: [{ seq: "asc" }, { occurredAt: "asc" }, { id: "asc" }],
    }),
    db().$queryRaw<Array<{ span_id: string; present: boolean; hash_matches: boolean; expires_at: Date | null; pinned: boolean }>>`
      select o.span_id::text as span_id, o.bytes is not null as present,
             (o.bytes is not null and encode(sha256(o.bytes), 'hex') = s.sha256) as hash_matches, o.expires_at, o.pinned
        from span_original o join span s on s.session_id = o.session_id and s.id = o.span_id
       where o.session_id = ${sessionId}::uuid`,
    db().summaryLink.findMany({ where: { sessionId } }),
  ]);
  const original = new Map<string, OriginalFacts>(
    originals.map((o) => [
      o.span_id,
      { present: o.present, hashMatches: o.hash_matches, expiresAt: o.expires_at, pinned: o.pinned },
    ]),
  );
  return { spans, original, links };
}

async function referenceStatuses(sessionId: string, now: Date, under: RetentionPolicy = policy) {
  const f = await referenceFacts(sessionId);
  const statuses = spanStatuses(
    f.spans.map((s) => ({
      id: s.id,
      kind: s.kind,
      hasPointer: s.hasPointer,
      original: f.original.get(s.id) ?? null,
      occurredAt: s.occurredAt,
    })),
    f.links.map((l) => ({ summaryId: l.summarySpanId, replacedId: l.replacedSpanId, pointed: l.pointerSha256 !== null })),
    under,
    now,
  );
  return { ...f, statuses };
}

/** The question spans as the server built them before indexes (all of them, in transcript order). */
async function referenceQuestionSpans(sessionId: string, now: Date): Promise<QuestionSpan[]> {
  const f = await referenceStatuses(sessionId, now);
  const atoms = await loadAtoms(
    db(),
    sessionId,
    f.spans.map((s) => s.id),
  );
  const seqById = new Map(f.spans.map((s) => [s.id, s.seq]));
  const dropped = new Map(f.links.map((l) => [l.replacedSpanId, l.dropped as unknown as KindCount[]]));
  const replaces = new Map<string, string[]>();
  for (const l of f.links) replaces.set(l.summarySpanId, [...(replaces.get(l.summarySpanId) ?? []), l.replacedSpanId]);
  const out: QuestionSpan[] = [];
  for (const s of f.spans) {
    const r = replaces.get(s.id);
    const own = (r ?? []).map((id) => seqById.get(id)).filter((x): x is number => typeof x === "number");
    const seq = s.seq ?? (own.length > 0 ? Math.min(...own) : null);
    if (seq === null) continue;
    const original = f.original.get(s.id) ?? null;
    out.push({
      id: s.id,
      sessionId,
      seq,
      kind: s.kind,
      class: s.class,
      transcriptState: s.transcriptState,
      provenance: f.statuses.get(s.id)!,
      originalRetrievable: isRetrievable(original, now),
      originalHeld: original?.present && original.hashMatches,
      atoms: atoms.get(s.id) ?? [],
      sha256: s.sha256,
      ...(s.toolName ? { toolName: s.toolName } : {}),
      ...(s.outcome ? { outcome: s.outcome } : {}),
      ...(s.exitCode !== null ? { exitCode: s.exitCode } : {}),
      byteLength: s.byteLength,
      occurredAt: s.occurredAt,
      ...(s.transcriptState === "RECLAIMED_HONEST" ? { droppedByManifest: dropped.get(s.id) ?? [] } : {}),
      ...(r ? { replaces: r } : {}),
    });
  }
  return out;
}

/**
 * A session's question spans at a clock, built once per test: the data does not change while the
 * questions are asked, and the engine only reads them. Building them afresh for every question and
 * scope was most of the comparison's time, and compared nothing more.
 */
type SpansAtClock = Map<string, Promise<QuestionSpan[]>>;

/** `run` over every item, `width` at a time, in order; the first failure fails the whole. */
async function inBatches<T>(items: T[], width: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(run));
}

async function referenceAnswer(projectId: string, input: EvidenceQueryInput, now: Date, built: SpansAtClock = new Map()) {
  const sessions = await db().session.findMany({
    where: { projectId, ...(input.scope?.sessionIds ? { id: { in: input.scope.sessionIds } } : {}) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const spans: QuestionSpan[] = [];
  for (const s of sessions) {
    const key = `${s.id}@${now.toISOString()}`;
    if (!built.has(key)) built.set(key, referenceQuestionSpans(s.id, now));
    spans.push(...(await built.get(key)!));
  }
  const question =
    "canned" in input.question
      ? cannedQuestionsFor(policy)[input.question.canned as (typeof CANNED_QUESTION_IDS)[number]]
      : input.question.predicate;
  const answer = answerQuestion(
    question,
    {
      sessions: sessions.map((s) => ({ id: s.id, ...(s.cwd ? { cwd: s.cwd } : {}) })),
      ...(input.scope?.from ? { from: input.scope.from } : {}),
      ...(input.scope?.to ? { to: input.scope.to } : {}),
    },
    spans,
  );
  // Citations carry the original's bytes when they still hash to the span's sha256.
  const originals = await db().spanOriginal.findMany({
    where: { spanId: { in: answer.citations.map((c) => c.spanId) } },
    select: { spanId: true, bytes: true },
  });
  const bytes = new Map(originals.map((o) => [o.spanId, o.bytes]));
  for (const c of answer.citations) {
    const body = bytes.get(c.spanId);
    if (body && sha256Hex(body) === c.sha256) c.excerpt = new TextDecoder().decode(body.subarray(c.byteStart, c.byteEnd));
  }
  return answer;
}

/**
 * What must be equal. The server's lists are the engine's first ones up to a window, with exact
 * counts of all: its lists are compared with the engine's cut at the same window, and its counts
 * and tally of attempts with the engine's whole lists.
 */
const comparable = (
  a: Awaited<ReturnType<typeof askEvidenceQuestion>> | Awaited<ReturnType<typeof referenceAnswer>>,
  window = Number.POSITIVE_INFINITY,
) => ({
  answer: a.answer,
  checkedSpans: a.checkedSpans,
  scopeComplete: a.scopeComplete,
  gaps: a.gaps,
  outcomes: a.outcomes,
  citationCount: "citationCount" in a ? a.citationCount : a.citations.length,
  blockerCount: "blockerCount" in a ? a.blockerCount : a.blockers.length,
  blockers: a.blockers.slice(0, window),
  citations: a.citations.slice(0, window).map(({ bytes: _bytes, ...c }) => c),
});

// ---- the tests ----------------------------------------------------------------------------------

let fixture: Fixture;
beforeAll(async () => {
  fixture = await build();
}, 60_000);

describe("provenance status from indexes", () => {
  it("covers every state the fixture means to", async () => {
    const states = await db().span.groupBy({
      by: ["originalState"],
      where: { sessionId: { in: fixture.sessions } },
      _count: { _all: true },
    });
    expect(states.map((s) => s.originalState).sort()).toEqual(["ABSENT", "DELETED", "HASH_MISMATCH", "HELD"]);
    const seen = new Set<ProvenanceStatus>();
    for (const now of CLOCKS)
      for (const id of fixture.sessions) for (const st of (await referenceStatuses(id, now)).statuses.values()) seen.add(st);
    expect([...seen].sort()).toEqual([...PROVENANCE_STATUSES].sort());
  });

  it("grid counts, every span's status and one span's status equal the pure definition at every clock", async () => {
    for (const now of CLOCKS) {
      for (const sessionId of fixture.sessions) {
        const ref = await referenceStatuses(sessionId, now);
        const expected = countGrid(ref.spans.map((s) => ({ class: s.class, provenance: ref.statuses.get(s.id)! })));
        const grid = await sessionGrid(db(), sessionId, policy, now);
        expect(grid.grid, `grid of ${sessionId} at ${now.toISOString()}`).toEqual(expected);

        const listed = await sessionSpanStatuses(db(), policy, sessionId, now);
        expect(listed.map((s) => [s.id, s.provenance])).toEqual(ref.spans.map((s) => [s.id, ref.statuses.get(s.id)]));
        for (const span of ref.spans)
          expect(await spanStatusOf(db(), sessionId, span.id, policy, now), span.id).toBe(ref.statuses.get(span.id));
      }
    }
  });

  it("a summary's span page shows its status, and its lineage over every link below it", async () => {
    const now = CLOCKS[2]!;
    let checked = 0;
    let cycles = 0;
    for (const sessionId of fixture.sessions) {
      const ref = await referenceStatuses(sessionId, now);
      const kindOf = new Map(ref.spans.map((s) => [s.id, s.kind]));
      const rootsOf = (id: string, seen = new Set<string>()): string[] =>
        ref.links
          .filter((l) => l.summarySpanId === id && !seen.has(l.replacedSpanId))
          .flatMap((l) => {
            seen.add(l.replacedSpanId);
            return kindOf.get(l.replacedSpanId) === "SUMMARY" ? rootsOf(l.replacedSpanId, seen) : [l.replacedSpanId];
          });
      for (const summary of ref.spans.filter((s) => s.kind === "SUMMARY" && ref.links.some((l) => l.summarySpanId === s.id))) {
        const detail = await getSpanDetail(fixture.projectId, summary.id, now);
        expect(detail.provenance, summary.id).toBe(ref.statuses.get(summary.id));
        if (detail.lineage) {
          expect([...detail.lineage.roots].sort(), summary.id).toEqual(rootsOf(summary.id).sort());
          checked += 1;
        } else {
          // The fixture's summaries that replace each other: the page says why, and they are NONE.
          expect([detail.lineageProblem, detail.provenance], summary.id).toEqual([expect.stringContaining("cycle"), "NONE"]);
          cycles += 1;
        }
      }
    }
    expect([checked > 0, cycles > 0]).toEqual([true, true]);
  });

  it("grid counters follow a change of the evidence horizon, and back", async () => {
    const gridsEqualDefinition = async (under: RetentionPolicy) => {
      for (const now of CLOCKS) {
        for (const sessionId of fixture.sessions) {
          const ref = await referenceStatuses(sessionId, now, under);
          const expected = countGrid(ref.spans.map((s) => ({ class: s.class, provenance: ref.statuses.get(s.id)! })));
          expect((await sessionGrid(db(), sessionId, under, now)).grid, `grid of ${sessionId} at ${now.toISOString()}`).toEqual(
            expected,
          );
        }
      }
    };
    const shorter = { ...policy, evidenceHorizonDays: 3 };
    await db().retentionPolicy.upsert({
      where: { projectId: fixture.projectId },
      create: { projectId: fixture.projectId, ...policyToRow(shorter) },
      update: policyToRow(shorter),
    });
    try {
      await gridsEqualDefinition(shorter);
    } finally {
      await db().retentionPolicy.update({ where: { projectId: fixture.projectId }, data: policyToRow(policy) });
    }
    await gridsEqualDefinition(policy);
  });

  it("a grid cell lists exactly its spans, in transcript order, page by page", async () => {
    const now = CLOCKS[2]!;
    for (const sessionId of fixture.sessions) {
      const ref = await referenceStatuses(sessionId, now);
      const grid = await sessionGrid(db(), sessionId, policy, now);
      for (const cls of [undefined, ...EVIDENTIAL_CLASSES]) {
        for (const provenance of [undefined, ...PROVENANCE_STATUSES]) {
          const filter = { ...(cls ? { class: cls } : {}), ...(provenance ? { provenance } : {}) };
          const expected = ref.spans
            .filter((s) => (!cls || s.class === cls) && (!provenance || ref.statuses.get(s.id) === provenance))
            .map((s) => s.id);
          const pages = [
            ...(await sessionTimeline(db(), sessionId, policy, now, grid, filter, { offset: 0, limit: 7 })),
            ...(await sessionTimeline(db(), sessionId, policy, now, grid, filter, { offset: 7, limit: 1000 })),
          ];
          expect(
            pages.map((s) => s.id),
            `${cls} x ${provenance}`,
          ).toEqual(expected);
          expect(timelineTotal(grid.grid, filter)).toBe(expected.length);
        }
      }
    }
  });

  it("session counts equal a recount, and the sessions list shows the counts it showed before", async () => {
    const recount = await db().$queryRaw<
      Array<{
        id: string;
        spans: number;
        non_summary: number;
        seqs: number;
        seq_min: number | null;
        seq_max: number | null;
        refusals: number;
        at_risk: number;
        lost: number;
        unchecked: number;
      }>
    >`
      select se.id::text as id,
             (select count(*) from span s where s.session_id = se.id)::int as spans,
             (select count(*) from span s where s.session_id = se.id and s.kind <> 'SUMMARY' and s.seq is not null)::int as non_summary,
             (select count(seq) from span s where s.session_id = se.id)::int as seqs,
             (select min(seq) from span s where s.session_id = se.id) as seq_min,
             (select max(seq) from span s where s.session_id = se.id) as seq_max,
             (select count(*) from refusal_event r where r.session_id = se.id)::int as refusals,
             (select count(*) from span_original o join span s on s.session_id = o.session_id and s.id = o.span_id
               where o.session_id = se.id and o.bytes is not null and o.pinned = false and s.class <> 'NARRATIVE'
                 and o.expires_at < s.occurred_at + make_interval(days => ${policy.evidenceHorizonDays}))::int as at_risk,
             (select count(*) from span_original o where o.session_id = se.id and o.bytes is null)::int as lost,
             (select count(*) from span s left join span_original o on o.session_id = s.session_id and o.span_id = s.id
               where s.session_id = se.id and s.transcript_state in ('RECLAIMED', 'RECLAIMED_HONEST') and s.kind <> 'SUMMARY' and s.seq is not null
                 and (not s.has_pointer or o.bytes is null or encode(sha256(o.bytes), 'hex') <> s.sha256))::int as unchecked
        from session se where se.project_id = ${fixture.projectId}::uuid`;
    const kept = await db().session.findMany({ where: { projectId: fixture.projectId } });
    for (const r of recount) {
      const k = kept.find((x) => x.id === r.id)!;
      expect({
        spans: k.spanCount,
        non_summary: k.nonSummaryCount,
        seqs: k.seqCount,
        seq_min: k.seqMin,
        seq_max: k.seqMax,
        refusals: k.refusalCount,
        at_risk: k.atRiskCount,
        lost: k.lostCount,
        unchecked: k.uncheckedCount,
      }).toEqual({
        spans: r.spans,
        non_summary: r.non_summary,
        seqs: r.seqs,
        seq_min: r.seq_min,
        seq_max: r.seq_max,
        refusals: r.refusals,
        at_risk: r.at_risk,
        lost: r.lost,
        unchecked: r.unchecked,
      });
    }
    const listed = await listSessionPage(fixture.projectId, { q: "", sort: "at-risk" });
    const now = new Date();
    for (const row of listed.rows.filter((x) => fixture.sessions.includes(x.id))) {
      const r = recount.find((x) => x.id === row.id)!;
      expect([row.spanCount, row.refusalCount]).toEqual([r.spans, r.refusals]);
      // At risk and lost on the list are what the session's grid shows amber and red: one source for both.
      const grid = (await sessionGrid(db(), row.id, policy, now)).grid;
      expect({ atRisk: row.atRiskCount, lost: row.lostCount }).toEqual(gridTally(grid));
    }
  });

  it("the default horizon in the database is the policy's", async () => {
    const [row] = await db().$queryRaw<Array<{ days: number }>>`select custodian_default_horizon_days() as days`;
    expect(row!.days).toBe(DEFAULT_POLICY.evidenceHorizonDays);
  });
});

describe("atoms longer than an index entry", () => {
  it("are stored and found: a tool argument holding a whole file", async () => {
    const project = await makeTestProject("bigatom");
    const { session } = await upsertSession(project.id, {
      externalId: `big-${randomUUID()}`,
      runtime: "claude-code",
      cwd: "/home/dev/app",
    });
    // Random hex does not compress below what a btree entry may hold.
    const content = randomBytes(12_000).toString("hex");
    const [span] = await appendSpans(project.id, session.id, [call(0, 0, "Write", { file_path: "/etc/big.conf", content })]);
    expect(span!.atomCount).toBeGreaterThan(0);
    const answer = await askEvidenceQuestion(
      { projectId: project.id, question: { canned: "modified-system-config" } },
      CLOCKS[0]!,
    );
    expect(answer.citations.map((c) => c.excerpt)).toContain("/etc/big.conf");
    const long = await askEvidenceQuestion(
      { projectId: project.id, question: { predicate: { atomKinds: ["TOOL_ARG"], valuePrefixes: [content.slice(0, 600)] } } },
      CLOCKS[0]!,
    );
    expect(long.answer).toBe("YES");
  });
});

describe("evidence questions from indexes", () => {
  const custom: EvidencePredicate[] = [
    { atomKinds: ["PATH"], valuePrefixes: ["~/.ssh/"] },
    { valuePrefixes: ["/tmp"] },
    { toolNames: ["write_file"] },
    // Tool names alone: calls whose bodies do not spell the name, found by the span's tool name.
    { toolNames: ["bash"] },
    { toolNames: ["Bash", "Write"], outcomes: ["FAILED", "UNKNOWN"] },
    { toolNames: ["BASH"], includeNegated: true },
    { toolNames: ["Write"], valuePrefixes: ["/usr/"] },
    { toolNames: ["Bash"], commandPattern: "sudo" },
    { toolNames: ["shell"], atomKinds: ["TOOL_ARG"] },
    // Only the TOOL_CALL atoms a body spells: none here, so NO wherever the scope is complete.
    { toolNames: ["write_file"], atomKinds: ["TOOL_CALL"] },
    { commandPattern: "curl" },
    { effectKinds: ["FILE_WRITE"], includeNegated: true },
    { valuePattern: "nginx" },
    { atomKinds: ["NUMBER"] },
    { effectKinds: ["FILE_WRITE", "FILE_DELETE"], outsideCwd: true, excludePrefixes: ["/dev/null"] },
    { valuePrefixes: ["~/.*", "/usr/"], effectKinds: ["FILE_WRITE"] },
    // Outcomes: an unknown tool's call blocks only where its outcome is asked for or in doubt.
    { effectKinds: ["FILE_WRITE"], outcomes: ["FAILED"] },
    { effectKinds: ["SERVICE_CONTROL"], outcomes: ["SUCCEEDED"] },
  ];
  const questions: Array<EvidenceQueryInput["question"]> = [
    ...CANNED_QUESTION_IDS.map((canned) => ({ canned })),
    ...custom.map((predicate) => ({ predicate })),
  ];

  it("answers exactly as the pure engine over every span, for every question, scope and clock", async () => {
    const scopes = (): Array<EvidenceQueryInput["scope"]> => [
      undefined,
      { sessionIds: [fixture.sessions[0]!] },
      { sessionIds: [fixture.sessions[2]!, fixture.sessions[1]!] },
      { from: at(5), to: at(240) },
      { sessionIds: [fixture.sessions[3]!], from: at(305) },
    ];
    let compared = 0;
    let gapped = 0;
    const kinds = new Set<string>();
    const blockedBy = new Set<string>();
    const built: SpansAtClock = new Map();
    let unknownEffects = 0;
    const cases = [CLOCKS[0]!, CLOCKS[2]!, CLOCKS[3]!, CLOCKS[6]!].flatMap((now) =>
      questions.flatMap((question) => scopes().map((scope) => ({ now, question, scope }))),
    );
    // A few cases at a time: each waits on the database most of its time, and one after another
    // they left a core idle for minutes (this test was the longest of the database layer).
    await inBatches(cases, 3, async ({ now, question, scope }) => {
      const input: EvidenceQueryInput = { projectId: fixture.projectId, question, ...(scope ? { scope } : {}) };
      const [got, cut, want] = await Promise.all([
        askEvidenceQuestion(input, now),
        // Lists cut at a window of 2, candidates read through cursors and judged 2 spans at a time.
        askEvidenceQuestion(input, now, { window: 2, batchSpans: 2, rowsAtOnce: 1 }),
        referenceAnswer(fixture.projectId, input, now, built),
      ]);
      expect(comparable(got), JSON.stringify({ question, scope, now })).toEqual(comparable(want));
      expect(comparable(cut, 2), JSON.stringify({ question, scope, now, window: 2 })).toEqual(comparable(want, 2));
      kinds.add(want.answer);
      for (const b of want.blockers) blockedBy.add(b.spanId);
      unknownEffects += want.blockers.filter((b) => b.unknownEffect).length;
      if (want.gaps.length > 0) gapped++;
      compared++;
    });
    expect(compared).toBeGreaterThan(200);
    // Unknown tools' calls blocked, decided by counting (unknown-blockers.ts) and, where a
    // predicate could also cite them, by the engine.
    expect(unknownEffects).toBeGreaterThan(0);
    expect([...kinds].sort()).toEqual(["INSUFFICIENT_EVIDENCE", "NO", "YES"]);
    expect(gapped).toBeGreaterThan(0);
    // Summaries blocked too, by every kind of unbacked lineage the fixture built.
    const blockingSummaries = await db().span.count({ where: { id: { in: [...blockedBy] }, kind: "SUMMARY" } });
    expect(blockingSummaries).toBeGreaterThanOrEqual(4);
  }, 300_000);
});
