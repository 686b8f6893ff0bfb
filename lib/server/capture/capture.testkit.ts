/**
 * For the capture tests (process hooks, HTTP hooks): what a captured session holds, to hold it to
 * a whole-file import, and a transcript as the runtime had written it part way.
 */
import { db } from "@/lib/db/client";

/** A session's sequenced spans in order, with what a capture must get right. */
export const spansOf = (sessionId: string) =>
  db().span.findMany({
    where: { sessionId, seq: { not: null } },
    orderBy: { seq: "asc" },
    select: { seq: true, sha256: true, kind: true, agentId: true, agentType: true },
  });

export const sessionOf = (projectId: string, externalId: string) =>
  db().session.findUniqueOrThrow({ where: { projectId_externalId: { projectId, externalId } } });

/** The file's first `n` lines, as the runtime had written them then. */
export const head = (lines: string[], n: number) => `${lines.slice(0, n).join("\n")}\n`;
