/**
 * What a runtime (or an auditor's script) reads back through the API: a project's sessions and a
 * session's spans, a page at a time, with totals and an opaque cursor for the next page.
 */
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { EvidentialClass, ProvenanceStatus } from "@/lib/evidence/types";
import { sessionGrid, sessionTimeline, timelineTotal } from "@/lib/server/provenance";
import { loadPolicy } from "@/lib/server/retention";

export interface SessionListParams {
  limit: number;
  cursor?: string;
  runtime?: string;
  externalId?: string;
}

/** A cursor is opaque to callers: here a keyset position (sessions) or an offset (spans), base64url JSON. */
function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

function decodeCursor<T>(cursor: string, valid: (v: unknown) => v is T): T {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (valid(value)) return value;
  } catch {
    // Falls through to the error below.
  }
  throw new AppError("VALIDATION_FAILED", "The cursor is not one this API returned", {
    fields: [{ path: "cursor", message: "pass nextCursor from the previous page unchanged" }],
  });
}

const isSessionKey = (v: unknown): v is [string, string] =>
  Array.isArray(v) && v.length === 2 && typeof v[0] === "string" && typeof v[1] === "string" && !Number.isNaN(Date.parse(v[0]));

/** Sessions in the order they were created (oldest first), keyset-paged on (created_at, id). */
export async function listSessionsPage(projectId: string, params: SessionListParams) {
  const filters: Prisma.Sql[] = [Prisma.sql`project_id = ${projectId}::uuid`];
  if (params.runtime) filters.push(Prisma.sql`runtime = ${params.runtime}`);
  if (params.externalId) filters.push(Prisma.sql`external_id = ${params.externalId}`);
  const where = Prisma.join(filters, " and ");
  const after = params.cursor ? decodeCursor(params.cursor, isSessionKey) : null;
  const page = after ? Prisma.sql`${where} and (created_at, id) > (${new Date(after[0])}::timestamp, ${after[1]}::uuid)` : where;
  const [rows, [count]] = await Promise.all([
    db().$queryRaw<
      Array<{
        id: string;
        external_id: string;
        runtime: string;
        title: string | null;
        cwd: string | null;
        started_at: Date | null;
        last_activity_at: Date;
        created_at: Date;
        span_count: number;
        refusal_count: number;
        lost_count: number;
        skipped_records: number;
      }>
    >`
      select id::text as id, external_id, runtime, title, cwd, started_at, last_activity_at, created_at, span_count, refusal_count,
             lost_count, (select count(*) from skipped_record r where r.session_id = session.id)::int as skipped_records
        from session where ${page}
       order by created_at, id
       limit ${params.limit + 1}`,
    db().$queryRaw<Array<{ n: number }>>`select count(*)::int as n from session where ${where}`,
  ]);
  const more = rows.length > params.limit;
  const shown = rows.slice(0, params.limit);
  const last = shown.at(-1);
  return {
    sessions: shown.map((r) => ({
      id: r.id,
      externalId: r.external_id,
      runtime: r.runtime,
      title: r.title,
      cwd: r.cwd,
      startedAt: r.started_at?.toISOString() ?? null,
      lastActivityAt: r.last_activity_at.toISOString(),
      spanCount: r.span_count,
      refusalCount: r.refusal_count,
      originalsDeleted: r.lost_count,
      skippedRecords: r.skipped_records,
    })),
    total: count?.n ?? 0,
    nextCursor: more && last ? encodeCursor([last.created_at.toISOString(), last.id]) : null,
  };
}

export interface SpanListParams {
  limit: number;
  cursor?: string;
  class?: EvidentialClass;
  provenance?: ProvenanceStatus;
}

const isOffset = (v: unknown): v is { offset: number } =>
  typeof v === "object" &&
  v !== null &&
  Number.isSafeInteger((v as { offset?: unknown }).offset) &&
  (v as { offset: number }).offset >= 0;

/** A session's spans in transcript order (seq, summaries after), each with its derived status and call outcome. */
export async function listSessionSpans(projectId: string, sessionId: string, params: SpanListParams, now = new Date()) {
  const session = await db().session.findFirst({ where: { id: sessionId, projectId }, select: { spanCount: true } });
  if (!session) throw new AppError("NOT_FOUND", "Session not found");
  const offset = params.cursor ? decodeCursor(params.cursor, isOffset).offset : 0;
  const policy = await loadPolicy(db(), projectId);
  const grid = await sessionGrid(db(), sessionId, policy, now);
  const filter = {
    ...(params.class ? { class: params.class } : {}),
    ...(params.provenance ? { provenance: params.provenance } : {}),
  };
  const fetched = await sessionTimeline(db(), sessionId, policy, now, grid, filter, { offset, limit: params.limit + 1 });
  const statuses = fetched.slice(0, params.limit);
  const details = await db().span.findMany({
    where: { sessionId, id: { in: statuses.map((s) => s.id) } },
    select: {
      id: true,
      role: true,
      toolName: true,
      outcome: true,
      exitCode: true,
      sourceLine: true,
      agentId: true,
      agentType: true,
      byteLength: true,
      sha256: true,
    },
  });
  const byId = new Map(details.map((d) => [d.id, d]));
  // Unfiltered, every span and summary; filtered, what the session page's grid counts for that cell.
  const total = params.class || params.provenance ? timelineTotal(grid.grid, filter) : session.spanCount;
  return {
    spans: statuses.map((s) => {
      const d = byId.get(s.id)!;
      return {
        id: s.id,
        seq: s.seq,
        kind: s.kind,
        role: d.role,
        toolName: d.toolName,
        class: s.class,
        provenance: s.provenance,
        transcriptState: s.transcriptState,
        outcome: (d.outcome as ToolOutcome | null) ?? null,
        exitCode: d.exitCode,
        sourceLine: d.sourceLine,
        agentId: d.agentId,
        agentType: d.agentType,
        occurredAt: s.occurredAt.toISOString(),
        byteLength: d.byteLength,
        sha256: d.sha256.trim(),
      };
    }),
    total,
    nextCursor: fetched.length > params.limit ? encodeCursor({ offset: offset + statuses.length }) : null,
  };
}
