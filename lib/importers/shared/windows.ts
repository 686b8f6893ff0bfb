/**
 * Windows of an import (see ImportWindow) put back together: the whole file's result, for the
 * callers that want it at once, and the proof that windows lose nothing.
 */
import type { ImportEnd, ImportResult, ImportWindow, ImportWindows, ImportedCompaction, ImportedSpan } from "./types";

export function assembleWindows(windows: Iterable<ImportWindow>, end: ImportEnd): ImportResult {
  const parts = new Map<string, { spans: ImportedSpan[]; compactions: ImportedCompaction[] }>();
  for (const window of windows) {
    for (const part of window.sessions) {
      let into = parts.get(part.externalId);
      if (!into) {
        into = { spans: [], compactions: [] };
        parts.set(part.externalId, into);
      }
      for (const span of part.spans) into.spans.push(span);
      for (const compaction of part.compactions) into.compactions.push(compaction);
    }
  }
  const sessions = end.sessions.map(({ externalId, runtime, skipped, ...known }) => {
    const { spans = [], compactions = [] } = parts.get(externalId) ?? {};
    return { externalId, runtime, spans, compactions, skipped, ...known };
  });
  return { format: end.format, sessions, issues: end.issues, records: end.records };
}

/** A whole file's result handed over as one window (for readers that cannot cut it). */
export function* asOneWindow(result: ImportResult, bytesRead: number): ImportWindows {
  const { sessions, format, issues, records } = result;
  if (sessions.length > 0)
    yield {
      sessions: sessions.map(({ externalId, runtime, cwd, spans, compactions }) => ({
        externalId,
        runtime,
        spans,
        compactions,
        ...(cwd !== undefined ? { cwd } : {}),
      })),
      bytesRead,
    };
  return { format, sessions: sessions.map(({ spans: _s, compactions: _c, ...header }) => header), issues, records };
}

/** Every window of a generator, then its end. */
export function collectWindows(windows: ImportWindows): ImportResult {
  const taken: ImportWindow[] = [];
  for (;;) {
    const next = windows.next();
    if (next.done) return assembleWindows(taken, next.value);
    taken.push(next.value);
  }
}
