import { db, disconnectDb } from "@/lib/db/client";
import { compileQuestion, cannedQuestionsFor } from "@/lib/evidence/questions";
import { loadPolicy } from "../policy";
import { countChecked, findGaps, judgeCandidates, judgeUnchecked } from "../evidence-spans";
import { judgeSummaries } from "../evidence-summaries";
import type { ScopeSessionRow } from "../evidence-scope";
const project = (await db().project.findUniqueOrThrow({ where: { slug: "scale" } })).id;
const policy = await loadPolicy(db(), project);
const question = cannedQuestionsFor(policy)["modified-system-config" as keyof ReturnType<typeof cannedQuestionsFor>] ?? Object.values(cannedQuestionsFor(policy))[0]!;
console.log(question.id);
const sessions = await db().$queryRaw<ScopeSessionRow[]>`select id::text as id, cwd, non_summary_count, unchecked_count, seq_count, seq_min, seq_max from session where project_id = ${project}::uuid order by created_at, id`;
const scope = { projectId: project, sessionIds: null, from: null, to: null };
const now = new Date();
const predicates = compileQuestion(question);
const sessionIndex = new Map(sessions.map((s, i) => [s.id, i]));
const cwdOf = (id: string) => sessions[sessionIndex.get(id)!]?.cwd ?? undefined;
const parts: Record<string, () => Promise<unknown>> = {
  gaps: () => findGaps(sessions),
  checked: () => countChecked(sessions, scope, now),
  unchecked: () => judgeUnchecked(predicates, scope, policy, now, cwdOf, sessionIndex),
  candidates: () => judgeCandidates(predicates, scope, policy, now, cwdOf),
  summaries: () => judgeSummaries(predicates, scope, policy, now, cwdOf),
};
for (const [name, f] of Object.entries(parts)) {
  const t: number[] = [];
  for (let i = 0; i < 8; i++) { const s = performance.now(); await f(); t.push(performance.now() - s); }
  t.sort((a, b) => a - b);
  console.log(name.padEnd(12), "p50", t[4]!.toFixed(0), "min", t[0]!.toFixed(0), "max", t[7]!.toFixed(0));
}

{
  const { db: d } = await import("@/lib/db/client");
  const b = await judgeUnchecked(predicates, scope, policy, now, cwdOf, sessionIndex);
  const by = new Map<string, number>();
  for (const x of b) by.set(`${x.transcriptState} ${x.class} ${x.provenance}`, (by.get(`${x.transcriptState} ${x.class} ${x.provenance}`) ?? 0) + 1);
  console.log(b.length, by);
  console.log(predicates.map((p) => ({ side: p.onSideEffects, kinds: [...p.relevantKinds] })));
  await d().$disconnect?.();
}
await disconnectDb();
