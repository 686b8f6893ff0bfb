import { textCannotHold } from "@/lib/core/text";

/**
 * Values as Postgres can store them exactly.
 *
 * A tool call's input as the span table keeps it (column `tool_input`, jsonb). Postgres JSON cannot
 * hold the NUL character, nor a lone UTF-16 surrogate, anywhere in a value or a key; such an input
 * is kept exactly as its JSON text (where both are plain escapes, "\u0000" and "\ud800") inside a
 * one-key wrapper object. So that the wrapper can never be mistaken for an input, an input that
 * itself looks like one is wrapped too. `decodeStoredToolInput` gives back the value sent.
 */

/** The wrapper's one key. */
export const TOOL_INPUT_TEXT_KEY = "$custodianJsonText";

/** Whether some string or key inside the value is one jsonb cannot hold (no recursion: inputs can nest). */
function holdsUnstorable(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (textCannotHold(v)) return true;
    } else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) {
        if (textCannotHold(k)) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

function looksLikeWrapper(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === TOOL_INPUT_TEXT_KEY;
}

/** The JSON text to store in `tool_input` for an input (null for none). */
export function encodeToolInput(input: unknown): string | null {
  if (input === undefined) return null;
  const json = JSON.stringify(input);
  if (!holdsUnstorable(input) && !looksLikeWrapper(input)) return json;
  return JSON.stringify({ [TOOL_INPUT_TEXT_KEY]: json });
}

/** The input a stored `tool_input` value stands for. */
export function decodeStoredToolInput(stored: unknown): unknown {
  if (looksLikeWrapper(stored)) {
    const text = (stored as Record<string, unknown>)[TOOL_INPUT_TEXT_KEY];
    if (typeof text === "string") return JSON.parse(text);
  }
  return stored;
}

/** The last instant stored timestamps are written with (ISO text past year 9999 needs a sign Postgres reads differently). */
const LAST_STORABLE_TIME = Date.parse("9999-12-31T23:59:59.999Z");

/** An expiry past the last storable instant is kept as that instant: either way it never comes. */
export function storableTime(date: Date): Date {
  return Number.isNaN(date.getTime()) || date.getTime() > LAST_STORABLE_TIME ? new Date(LAST_STORABLE_TIME) : date;
}
