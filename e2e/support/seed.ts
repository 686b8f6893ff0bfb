import { randomBytes } from "node:crypto";
import { e2eDatabase } from "./e2e-database";

/**
 * Seeds a test's own data straight through the use cases, on the e2e run's database, so each
 * browser test starts from data nobody else touches.
 */
export async function seedSession(
  label: string,
  spans: Array<{
    kind: "MESSAGE" | "TOOL_CALL" | "TOOL_RESULT";
    body: string;
    toolName?: string;
    /** The call's outcome and exit code, the subagent that produced the span, its imported line. */
    outcome?: "SUCCEEDED" | "FAILED" | "DECLINED" | "NOT_RUN" | "UNKNOWN";
    exitCode?: number;
    agentId?: string;
    agentType?: string;
    sourceLine?: number;
  }>,
  names: { externalId?: string; title?: string; projectName?: string; demoMembers?: boolean } = {},
) {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { createProject } = await import("@/lib/server/admin");
  const { addDemoMembers } = await import("@/lib/demo/load");
  const { upsertSession, appendSpans } = await import("@/lib/server/ingest");
  const suffix = randomBytes(3).toString("hex");
  const project = await createProject({ slug: `${label}-${suffix}`, name: names.projectName ?? `E2E ${label}` });
  // The demo's people (admin, operator, viewer) are members of each test's project, unless the test
  // wants a project they cannot see.
  if (names.demoMembers !== false) await addDemoMembers(project.id);
  const { session } = await upsertSession(project.id, {
    externalId: names.externalId ?? `${label}-${suffix}`,
    runtime: "claude-code",
    title: names.title ?? `E2E ${label} ${suffix}`,
    cwd: "/home/dev/app",
  });
  const ingested = await appendSpans(
    project.id,
    session.id,
    spans.map((s, seq) => ({
      seq,
      kind: s.kind,
      toolName: s.toolName,
      outcome: s.outcome,
      exitCode: s.exitCode,
      agentId: s.agentId,
      agentType: s.agentType,
      sourceLine: s.sourceLine,
      occurredAt: new Date(),
      body: new TextEncoder().encode(s.body),
    })),
  );
  return {
    projectId: project.id,
    projectSlug: project.slug,
    sessionId: session.id,
    title: session.title!,
    spanIds: ingested.map((s) => s.id),
  };
}

/**
 * A copy of the demo project (its sessions, compactions and acts) under a slug of its own, with the
 * demo's people as members: for tests that change what the demo's readers would see.
 */
export async function seedDemoProject(label: string): Promise<{ projectId: string; projectSlug: string }> {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { addDemoMembers, loadDemo } = await import("@/lib/demo/load");
  const demo = await loadDemo(new Date(), `${label}-${randomBytes(3).toString("hex")}`);
  await addDemoMembers(demo.projectId);
  return { projectId: demo.projectId, projectSlug: demo.projectSlug };
}

export async function originalOf(spanId: string) {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { db } = await import("@/lib/db/client");
  return db().spanOriginal.findFirstOrThrow({ where: { spanId }, select: { pinned: true, expiresAt: true } });
}

/** An API key of the project, with the given role; returns the secret key. */
export async function seedApiKey(projectId: string, role: "VIEWER" | "OPERATOR" | "ADMIN") {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { createApiKey } = await import("@/lib/server/admin");
  return (await createApiKey(projectId, `e2e ${role.toLowerCase()}`, role, { type: "SYSTEM", label: "e2e" })).key;
}

/** A finished import job of the project, its error text given. */
export async function seedImportJob(projectId: string, error: string) {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { randomUUID } = await import("node:crypto");
  const { db } = await import("@/lib/db/client");
  const job = await db().importJob.create({
    data: { id: randomUUID(), projectId, status: "FAILED", byteLength: 0, error, requester: "e2e" },
  });
  return job.id;
}

/** A finished evidence-question job whose stored answer names `text`. */
export async function seedQuestionJob(projectId: string, text: string) {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { randomUUID } = await import("node:crypto");
  const { db } = await import("@/lib/db/client");
  const job = await db().questionJob.create({
    data: { id: randomUUID(), projectId, status: "FAILED", error: text, answer: { note: text }, requester: "e2e" },
  });
  return job.id;
}

/** Pins a span's original, as an operator would, with the given reason (it shows in the audit log). */
export async function seedPin(projectId: string, spanId: string, reason: string) {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { pinOriginal } = await import("@/lib/server/provenance");
  await pinOriginal({ projectId, spanId }, { type: "SYSTEM", label: "e2e" }, reason);
}

/** Records the session's import skipped (line and reason), as an import stores them: the session is incomplete. */
export async function seedSkippedRecords(sessionId: string, records: Array<{ line: number; reason: string }>) {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { db } = await import("@/lib/db/client");
  await db().skippedRecord.createMany({ data: records.map((r) => ({ sessionId, ...r })) });
}

/** A person of their own who belongs to no project yet; returns how to sign in. */
export async function seedPerson() {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { createUser } = await import("@/lib/server/admin");
  const email = `member-${randomBytes(4).toString("hex")}@e2e.local`;
  const password = `e2e-password-${randomBytes(6).toString("hex")}`;
  await createUser({ email, role: "VIEWER", password }, { type: "SYSTEM", label: "e2e" });
  return { email, password };
}

/** A person of their own, a member of the given project only, with a role there; returns how to sign in. */
export async function seedMember(projectId: string, role: "VIEWER" | "OPERATOR" | "ADMIN") {
  const person = await seedPerson();
  const { addMember } = await import("@/lib/server/admin");
  await addMember({ projectId, email: person.email, role }, { type: "SYSTEM", label: "e2e" });
  return person;
}

/** The project's refusals (the gate's refused decisions, as its Refusals page lists them), their ids. */
export async function refusalIdsOf(projectId: string): Promise<string[]> {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { db } = await import("@/lib/db/client");
  return (await db().refusalEvent.findMany({ where: { projectId }, select: { id: true } })).map((r) => r.id);
}
