import { db } from "@/lib/db/client";
import { DAY_MS, DEFAULT_POLICY } from "@/lib/evidence/policy";
import type { RetentionPolicy } from "@/lib/evidence/types";
import type { Actor } from "@/lib/server/audit";
import { appendSpans, upsertSession } from "@/lib/server/ingest";
import { createProject } from "@/lib/server/admin";
import { candidateSummaryFor } from "@/lib/server/gate";
import { reclaim } from "@/lib/server/gate";
import { pinOriginal, setOriginalExpiry } from "@/lib/server/provenance";
import { sweep } from "@/lib/server/retention";
import { addMember, createUser } from "@/lib/server/admin";
import { DEMO_PROJECT, DEMO_SESSIONS, type DemoSession } from "./transcripts";

const MINUTE_MS = 60_000;
const DEMO_OPERATOR: Actor = { type: "SYSTEM", label: "demo loader" };

/**
 * The demo team keeps structured originals 180 days, shorter than its 400-day evidence horizon:
 * a policy a retention owner might pick to save storage, which is what leaves spans EXPIRING.
 */
export const DEMO_POLICY: RetentionPolicy = {
  ...DEFAULT_POLICY,
  ttlDays: { NARRATIVE: 30, STRUCTURED: 180, SIDE_EFFECTING: 730 },
  systemConfigPrefixes: [...DEFAULT_POLICY.systemConfigPrefixes],
};

export interface DemoSummary {
  projectId: string;
  projectSlug: string;
  sessions: number;
  spans: number;
}

/**
 * The demo's people, one per role, sharing a published password: the demo is for trying
 * Custodian on one's own machine (it binds to 127.0.0.1), never for a shared server.
 */
export const DEMO_PASSWORD = "custodian-demo";
export const DEMO_USERS = [
  { email: "admin@demo.local", name: "Ada Admin", role: "ADMIN" },
  { email: "operator@demo.local", name: "Oli Operator", role: "OPERATOR" },
  { email: "viewer@demo.local", name: "Vic Viewer", role: "VIEWER" },
] as const;

/**
 * Loads the demo project when the database has no project at all; otherwise leaves it alone. The
 * demo's people (made when there is nobody yet) are members of it, each with their role there; the
 * admin is also the instance admin.
 */
export async function loadDemoIfEmpty(now = new Date()): Promise<DemoSummary | null> {
  if ((await db().project.count()) > 0) return null;
  const summary = await loadDemo(now, DEMO_PROJECT.slug);
  if ((await db().user.count()) === 0) {
    for (const user of DEMO_USERS) await createUser({ ...user, password: DEMO_PASSWORD }, DEMO_OPERATOR);
  }
  await addDemoMembers(summary.projectId);
  return summary;
}

/** Makes each demo person who has an account a member of the project with their demo role (once). */
export async function addDemoMembers(projectId: string): Promise<number> {
  const people = await db().user.findMany({
    where: { email: { in: DEMO_USERS.map((u) => u.email) }, memberships: { none: { projectId } } },
    select: { email: true },
  });
  for (const person of people) {
    const role = DEMO_USERS.find((u) => u.email === person.email)!.role;
    await addMember({ projectId, email: person.email, role }, DEMO_OPERATOR);
  }
  return people.length;
}

export async function hasDemoUsers(): Promise<boolean> {
  return (await db().user.count({ where: { email: { in: DEMO_USERS.map((u) => u.email) } } })) > 0;
}

/**
 * Streams every demo session through the real ingest, asks the gate for each compaction, performs
 * the operators' acts, then sweeps expired originals, all as of `now`.
 */
export async function loadDemo(now: Date, slug: string): Promise<DemoSummary> {
  const project = await createProject({ slug, name: DEMO_PROJECT.name, policy: DEMO_POLICY });
  let spans = 0;
  for (const demo of DEMO_SESSIONS) spans += await loadSession(project.id, demo, now);
  await sweep(now);
  return { projectId: project.id, projectSlug: project.slug, sessions: DEMO_SESSIONS.length, spans };
}

async function loadSession(projectId: string, demo: DemoSession, now: Date): Promise<number> {
  const startedAt = new Date(now.getTime() - demo.daysAgo * DAY_MS);
  const at = (minutes: number) => new Date(startedAt.getTime() + minutes * MINUTE_MS);
  const { session } = await upsertSession(projectId, {
    externalId: demo.externalId,
    runtime: demo.runtime,
    title: demo.title,
    cwd: demo.cwd,
    startedAt,
  });
  const ingested = await appendSpans(
    projectId,
    session.id,
    demo.spans.map((span, seq) => ({
      seq,
      kind: span.kind,
      role: span.role,
      toolName: span.toolName,
      toolInput: span.toolInput,
      exitCode: span.exitCode,
      occurredAt: at(span.at),
      body: typeof span.body === "string" ? new TextEncoder().encode(span.body) : span.body,
    })),
    // The demo stands for runtimes that streamed these sessions live: received when they occurred.
    { ttlFrom: "occurred" },
  );
  const idBySeq = new Map(ingested.map((s) => [s.seq, s]));

  for (const compaction of demo.compactions) {
    const requester = `runtime:${demo.runtime}`;
    const replaced = [...idBySeq.entries()]
      .filter(([seq]) => seq >= compaction.fromSeq && seq <= compaction.toSeq)
      .map(([, s]) => s.id);
    const summary = await candidateSummaryFor(session.id, replaced, compaction.text, compaction);
    await reclaim({
      projectId,
      sessionId: session.id,
      selection: { fromSeq: compaction.fromSeq, toSeq: compaction.toSeq },
      summary,
      dryRun: false,
      requester,
      at: at(compaction.at),
      observed: compaction.observed,
    });
  }

  for (const act of demo.acts) {
    const span = idBySeq.get(act.seq)!;
    if (act.act === "pin") await pinOriginal({ projectId, spanId: span.id }, DEMO_OPERATOR, act.reason);
    else
      await setOriginalExpiry(
        { projectId, spanId: span.id },
        DEMO_OPERATOR,
        new Date(now.getTime() + act.days * DAY_MS),
        act.reason,
        now,
      );
  }
  return demo.spans.length;
}
