/**
 * `npm run bench:questions -- answers [now]`: one line per case with what an answer judged afresh
 * says (verdict, citation and blocker counts, spans checked, gaps, outcomes) and a sha256 of the
 * citations and blockers it keeps, for every canned question and a few predicates, over the whole
 * project, the 90 days before `now`, the median and the longest session. Two runs at the same
 * `now` (an ISO time; default the current time) over the same data print the same lines exactly
 * when a change to the question engine left every answer as it was: diff them.
 *
 * Nothing is kept: no stored verdict is read or written (it deletes the project's stored verdicts
 * first, so run it on a copy of a project others are measuring).
 */
import { createHash } from "node:crypto";
import { db } from "@/lib/db/client";
import { CANNED_QUESTION_IDS, type EvidencePredicate } from "@/lib/evidence/questions";
import { askEvidenceQuestion, type EvidenceQueryInput } from "@/lib/server/questions";
import { forgetter } from "./questions-cases";
import { scaleTargets } from "./measure";

const PREDICATES: Array<{ label: string; predicate: EvidencePredicate }> = [
  { label: "service control", predicate: { effectKinds: ["SERVICE_CONTROL"] } },
  { label: "file deletes and moves", predicate: { effectKinds: ["FILE_DELETE", "FILE_MOVE"] } },
  { label: "unknown tools", predicate: { effectKinds: ["UNKNOWN_TOOL"] } },
  { label: "path prefix /etc/", predicate: { valuePrefixes: ["/etc/"] } },
  { label: "command apt-get", predicate: { commandPattern: "apt-get" } },
];

export async function printAnswerFingerprints(nowArg: string | undefined): Promise<void> {
  const now = nowArg ? new Date(nowArg) : new Date();
  if (Number.isNaN(now.getTime())) throw new Error(`not a time: ${nowArg}`);
  const targets = await scaleTargets();
  await forgetter(targets.projectId)();
  console.log(`# answers judged afresh over "${targets.slug}" (${targets.spans} spans) at ${now.toISOString()}`);
  const scopes: Array<{ label: string; scope?: EvidenceQueryInput["scope"] }> = [
    { label: "whole project" },
    { label: "last 90 days", scope: { from: new Date(now.getTime() - 90 * 86_400_000) } },
    { label: "median session", scope: { sessionIds: [targets.typical.id] } },
    { label: "longest session", scope: { sessionIds: [targets.big.id] } },
  ];
  const questions: Array<{ label: string; question: EvidenceQueryInput["question"] }> = [
    ...CANNED_QUESTION_IDS.map((id) => ({ label: id, question: { canned: id } })),
    ...PREDICATES.map((p) => ({ label: p.label, question: { predicate: p.predicate } })),
  ];
  for (const q of questions) {
    for (const s of scopes) {
      const input: EvidenceQueryInput = {
        projectId: targets.projectId,
        question: q.question,
        ...(s.scope ? { scope: s.scope } : {}),
      };
      const t0 = performance.now();
      const r = await askEvidenceQuestion(input, now, { keepVerdicts: () => {} });
      const ms = performance.now() - t0;
      const lists = createHash("sha256")
        .update(
          JSON.stringify([r.citations, r.blockers, r.gaps, r.skippedRecords], (_k, v) =>
            v instanceof Uint8Array ? Buffer.from(v).toString("base64") : v,
          ),
        )
        .digest("hex")
        .slice(0, 16);
      console.log(
        `${q.label} | ${s.label} | ${r.answer} | citations ${r.citationCount} (${r.citations.length} kept) | blockers ${r.blockerCount} (${r.blockers.length} kept) | ` +
          `checked ${r.checkedSpans} | gaps ${r.gaps.length} | sessions ${r.sessionsInScope} | outcomes ${JSON.stringify(r.outcomes)} | lists ${lists}`,
      );
      console.error(`  ${q.label}, ${s.label}: ${ms.toFixed(0)} ms`);
    }
  }
  // Nothing was kept, but be sure.
  await db().questionVerdict.deleteMany({ where: { session: { projectId: targets.projectId } } });
}
