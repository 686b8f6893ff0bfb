/**
 * The evidence ledger: what an agent did that changed something (files written or deleted,
 * commands and their outcomes, packages, network mutations...), each with its span id so that the
 * agent can fetch the original. Printed into the agent's context after a compaction, served by the
 * MCP tool `side_effect_ledger`. Capped: the most consequential actions are kept first, and what
 * is kept is listed most recent first.
 */
import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import type { SideEffectKind } from "@/lib/evidence/types";
import { capLedger, LEDGER_DEFAULT_LIMIT } from "./ledger-cap";

export { LEDGER_DEFAULT_LIMIT, LEDGER_MAX_LIMIT } from "./ledger-cap";

export interface LedgerEntry {
  spanId: string;
  seq: number | null;
  occurredAt: string;
  toolName: string | null;
  effects: Array<{ effect: SideEffectKind; target: string }>;
  outcome: string | null;
  exitCode: number | null;
  /** VERBATIM, or RECLAIMED (the original is what is left of it). */
  transcriptState: string;
}

export interface Ledger {
  sessionId: string;
  externalId: string;
  entries: LedgerEntry[];
  /** Side-effecting actions in the session, of which `entries` are the ones kept. */
  total: number;
}

/** A session of the project by its id or its runtime's external id. */
export async function findSession(projectId: string, session: string) {
  const found = isUuid(session)
    ? await db().session.findFirst({ where: { projectId, OR: [{ id: session }, { externalId: session }] } })
    : await db().session.findUnique({ where: { projectId_externalId: { projectId, externalId: session } } });
  if (!found) throw new AppError("NOT_FOUND", `No session "${session}" in this project`);
  return found;
}

export async function sideEffectLedger(projectId: string, session: string, limit = LEDGER_DEFAULT_LIMIT): Promise<Ledger> {
  const found = await findSession(projectId, session);
  const spans = await db().span.findMany({
    where: { sessionId: found.id, class: "SIDE_EFFECTING", kind: { not: "TOOL_RESULT" } },
    select: { id: true, seq: true, occurredAt: true, toolName: true, outcome: true, exitCode: true, transcriptState: true },
  });
  const atoms = await db().evidenceAtom.findMany({
    where: { sessionId: found.id, effect: { not: null }, spanId: { in: spans.map((s) => s.id) } },
    select: { spanId: true, effect: true, normalized: true },
    orderBy: [{ spanId: "asc" }, { ordinal: "asc" }],
  });
  const effects = new Map<string, Array<{ effect: SideEffectKind; target: string }>>();
  for (const a of atoms) {
    const list = effects.get(a.spanId) ?? [];
    if (!list.some((e) => e.effect === a.effect && e.target === a.normalized))
      list.push({ effect: a.effect!, target: a.normalized });
    effects.set(a.spanId, list);
  }
  const kept = capLedger(
    spans.map((s) => ({ ...s, effects: effects.get(s.id) ?? [] })),
    limit,
  );
  return {
    sessionId: found.id,
    externalId: found.externalId,
    total: spans.length,
    entries: kept.map((s) => ({
      spanId: s.id,
      seq: s.seq,
      occurredAt: s.occurredAt.toISOString(),
      toolName: s.toolName,
      effects: s.effects,
      outcome: s.outcome,
      exitCode: s.exitCode,
      transcriptState: s.transcriptState,
    })),
  };
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The ledger as the lines an agent reads in its new context. */
export function ledgerText(ledger: Ledger, serverUrl?: string): string {
  const fetchHint = serverUrl
    ? `GET ${serverUrl.replace(/\/$/, "")}/api/v1/spans/<span id>/original, or the MCP tool get_original`
    : "the MCP tool get_original";
  const lines = [
    `Custodian evidence ledger for session ${ledger.externalId}: ${ledger.total} side-effecting action${ledger.total === 1 ? "" : "s"} so far` +
      (ledger.entries.length < ledger.total ? `, the ${ledger.entries.length} most consequential listed` : "") +
      `, most recent first. Compaction may have shortened them in your context; the originals are held: fetch one with ${fetchHint}.`,
  ];
  for (const e of ledger.entries) {
    const what =
      e.effects.length > 0 ? e.effects.map((x) => `${x.effect} ${clip(x.target, 160)}`).join("; ") : "unclassified action";
    const outcome = e.outcome ? ` -> ${e.outcome}${e.exitCode !== null ? ` (exit ${e.exitCode})` : ""}` : "";
    lines.push(`- ${e.occurredAt} ${e.toolName ?? "action"}: ${what}${outcome} [span ${e.spanId}]`);
  }
  if (ledger.total === 0) lines.push("- nothing side-effecting recorded yet");
  return lines.join("\n");
}
