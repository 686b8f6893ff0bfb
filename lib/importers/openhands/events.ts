/**
 * What the two OpenHands event readers (classic event stream, agent SDK) share: the event record,
 * the session they write into, and the splitting of an event array into records.
 */
import type { Clock, DraftSpan, ImportCollector, SessionDraft } from "../shared/builder";
import { splitArray } from "../shared/json-scan";
import { ENDS_BEFORE_SESSION } from "../shared/partial-end";
import { decodeUtf8, isRecord } from "../shared/text";

export interface EventRecord {
  /** Line (JSON Lines) or 1-based array index: the record this event belongs to. */
  position: number;
  /** The event's own bytes, for slicing values verbatim. */
  bytes: Uint8Array;
  value: Record<string, unknown>;
}

/** One session being read: where spans go, the file's clock and its accounting. */
export interface StreamContext {
  readonly collector: ImportCollector;
  readonly clock: Clock;
  readonly draft: SessionDraft;
  /** The task an evaluation or resolver line gave the agent: a message without a source that repeats it is the user's. */
  readonly instruction?: string;
}

/** A classic message action's text (its args', or, in a flat event, its own). */
export function messageText(v: Record<string, unknown>): string | undefined {
  const args = isRecord(v.args) ? v.args : v;
  return typeof args.content === "string" ? args.content : undefined;
}

export function numberOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) ? value : undefined;
}

/** An event id as text: OpenHands' classic ids are numbers, the SDK's are strings. */
export function idOf(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Every span an event gave, by event id (a condensation forgets events, not single spans). */
export class SpansById {
  private readonly map = new Map<string, DraftSpan[]>();

  add(id: string | undefined, span: DraftSpan): DraftSpan {
    if (id === undefined) return span;
    const list = this.map.get(id);
    if (list) list.push(span);
    else this.map.set(id, [span]);
    return span;
  }

  get(id: string): readonly DraftSpan[] {
    return this.map.get(id) ?? [];
  }

  has(id: string): boolean {
    return this.map.has(id);
  }

  /** All spans of the given events that this file holds. */
  all(ids: readonly string[]): DraftSpan[] {
    return ids.flatMap((id) => this.get(id));
  }
}

/**
 * The events of the array opening at `open`, each parsed on its own. An element that is itself
 * an array (the `[action, observation]` pairs of older evaluation outputs) gives its elements.
 * A damaged element is skipped with its position, for `draft` when the caller knows the session.
 */
export function arrayEvents(
  bytes: Uint8Array,
  open: number,
  collector: ImportCollector,
  position: (index: number) => number,
  draft?: SessionDraft,
): EventRecord[] {
  const { elements, closed } = splitArray(bytes, open);
  // The runtime closes the array it writes: one left open ends before the events after its last.
  if (!closed && draft)
    collector.incomplete(
      position(elements.length),
      `${ENDS_BEFORE_SESSION}: the event array is not closed, so the events after its last are missing (cut, or still being written)`,
      draft,
    );
  const events: EventRecord[] = [];
  elements.forEach((el, index) => {
    const at = position(index);
    collector.read(at);
    const slice = bytes.subarray(el.start, el.end);
    const text = decodeUtf8(slice);
    if (text === undefined) return collector.skip(at, "invalid UTF-8 in event; skipped", draft);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return collector.skip(
        at,
        el.complete ? `malformed event JSON (${detail}); skipped` : "truncated event at the end of the file; skipped",
        draft,
      );
    }
    if (Array.isArray(value)) {
      // A pair: its members are events of the same record.
      for (const member of splitArray(slice, 0).elements) {
        const memberBytes = slice.subarray(member.start, member.end);
        const memberValue: unknown = JSON.parse(decodeUtf8(memberBytes) ?? "null");
        if (isRecord(memberValue)) events.push({ position: at, bytes: memberBytes, value: memberValue });
        else collector.skip(at, "member of an event pair is not a JSON object; skipped", draft);
      }
      return;
    }
    if (!isRecord(value)) return collector.skip(at, "event is not a JSON object; skipped", draft);
    events.push({ position: at, bytes: slice, value });
  });
  return events;
}

/** Texts of a list of content parts (`{"type": "text", "text": ...}`), joined by blank lines. */
export function textOfParts(parts: unknown): string | undefined {
  if (typeof parts === "string") return parts;
  if (!Array.isArray(parts)) return undefined;
  const texts = parts.filter(isRecord).flatMap((p) => (typeof p.text === "string" ? [p.text] : []));
  return texts.length > 0 ? texts.join("\n\n") : undefined;
}
