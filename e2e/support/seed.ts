import { randomBytes } from "node:crypto";
import { e2eDatabase } from "./e2e-database";

/**
 * Seeds a test's own data straight through the use cases, on the e2e run's database, so each
 * browser test starts from data nobody else touches.
 */
export async function seedSession(
  label: string,
  spans: Array<{ kind: "MESSAGE" | "TOOL_CALL" | "TOOL_RESULT"; body: string; toolName?: string }>,
) {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { createProject } = await import("@/lib/server/admin");
  const { upsertSession, appendSpans } = await import("@/lib/server/ingest");
  const suffix = randomBytes(3).toString("hex");
  const project = await createProject({ slug: `${label}-${suffix}`, name: `E2E ${label}` });
  const { session } = await upsertSession(project.id, {
    externalId: `${label}-${suffix}`,
    runtime: "claude-code",
    title: `E2E ${label} ${suffix}`,
    cwd: "/home/dev/app",
  });
  const ingested = await appendSpans(
    project.id,
    session.id,
    spans.map((s, seq) => ({
      seq,
      kind: s.kind,
      toolName: s.toolName,
      occurredAt: new Date(),
      body: new TextEncoder().encode(s.body),
    })),
  );
  return { projectId: project.id, sessionId: session.id, title: session.title!, spanIds: ingested.map((s) => s.id) };
}

export async function originalOf(spanId: string) {
  process.env.DATABASE_URL = e2eDatabase().url;
  const { db } = await import("@/lib/db/client");
  return db().spanOriginal.findFirstOrThrow({ where: { spanId }, select: { pinned: true, expiresAt: true } });
}
