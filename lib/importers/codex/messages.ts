/**
 * Messages of a Codex rollout as the reader keeps track of them: a prompt or answer recorded both as
 * a response item and as an event is one span (duplicates are dropped when the turn ends), and a
 * compaction's replacement history names by text the messages it kept.
 */
import type { DraftSpan, SessionDraft } from "../shared/builder";
import { contentTexts } from "./outcomes";
import { contentId, isRecord, utf8 } from "../shared/text";

/** Event messages and how much they are trusted: a lower tier's text makes a higher tier's redundant. */
export const EVENT_MESSAGES: Readonly<Record<string, { role: string; tier: number }>> = {
  user_message: { role: "user", tier: 1 },
  agent_message: { role: "assistant", tier: 1 },
  agent_reasoning: { role: "reasoning", tier: 1 },
  agent_reasoning_raw_content: { role: "reasoning", tier: 1 },
  injected_message: { role: "user", tier: 1 },
  agent_message_delta: { role: "assistant", tier: 4 },
  agent_message_content_delta: { role: "assistant", tier: 4 },
  agent_reasoning_delta: { role: "reasoning", tier: 4 },
  agent_reasoning_raw_content_delta: { role: "reasoning", tier: 4 },
  reasoning_content_delta: { role: "reasoning", tier: 4 },
  reasoning_raw_content_delta: { role: "reasoning", tier: 4 },
};
interface MessageRecord {
  span: DraftSpan;
  role: string;
  text: string;
  /** 0 for response items; events by EVENT_MESSAGES tier. */
  tier: number;
}

export class CodexMessages {
  /** The turn's messages. */
  private readonly turn: MessageRecord[] = [];
  /**
   * Each session's messages since its last compaction, by a digest of their text: the bodies of
   * spans handed over in a window are released, and a compaction may keep one of them.
   */
  private readonly sinceCompaction = new Map<SessionDraft, Array<{ span: DraftSpan; digest: string }>>();

  /** A message of the turn with its text and tier (0 for a response item). */
  add(draft: SessionDraft, span: DraftSpan, text: string, tier: number): void {
    this.note(draft, span);
    this.turn.push({ span, role: span.role ?? "", text, tier });
  }

  /** A message that no other record repeats (a review, a message between agents). */
  note(draft: SessionDraft, span: DraftSpan): void {
    let notes = this.sinceCompaction.get(draft);
    if (!notes) this.sinceCompaction.set(draft, (notes = []));
    notes.push({ span, digest: contentId(span.body) });
  }

  /**
   * The turn ended: drops event messages whose text a more trusted record of the same role already
   * holds (the response item, or an earlier tier of event); the dropped record still counts as
   * used, merged.
   */
  endTurn(): void {
    // Compared only with lower tiers: the same prompt sent twice is two records of one tier.
    const kept = new Map<string, string[]>();
    const tiers = [...new Set(this.turn.map((m) => m.tier))].sort((a, b) => a - b);
    for (const tier of tiers) {
      const survivors = new Set(this.turn.filter((m) => m.tier === tier && !isRedundant(m, kept)));
      for (const m of this.turn) if (m.tier === tier && !survivors.has(m)) m.span.dropped = true;
      for (const m of survivors) kept.set(m.role, [...(kept.get(m.role) ?? []), m.text]);
    }
    this.turn.length = 0;
  }

  /**
   * Which of the session's spans since its last compaction a compaction's replacement history keeps
   * verbatim (those were not lost); the session's notes start again after it. A message handed over
   * in an earlier window is in the session's list as a stand-in with its seq.
   */
  keptBy(draft: SessionDraft, history: unknown): (span: DraftSpan) => boolean {
    const kept = keptDigests(history);
    const spans = new Set<DraftSpan>();
    const seqs = new Set<number>();
    for (const { span, digest } of this.sinceCompaction.get(draft) ?? []) {
      if (!kept.has(digest)) continue;
      spans.add(span);
      if (span.seq !== undefined) seqs.add(span.seq);
    }
    this.sinceCompaction.delete(draft);
    return (s) => s.kind === "MESSAGE" && (spans.has(s) || (s.seq !== undefined && seqs.has(s.seq)));
  }
}

function isRedundant(m: MessageRecord, kept: ReadonlyMap<string, string[]>): boolean {
  const needle = m.text.trim();
  return m.tier > 0 && (kept.get(m.role) ?? []).some((t) => t.includes(needle));
}

/** Digests of the message texts a compaction's replacement history keeps verbatim. */
function keptDigests(history: unknown): Set<string> {
  const kept = new Set<string>();
  if (!Array.isArray(history)) return kept;
  for (const item of history) {
    if (isRecord(item) && item.type === "message")
      for (const t of contentTexts(item.content)?.texts ?? []) kept.add(contentId(utf8(t)));
  }
  return kept;
}
