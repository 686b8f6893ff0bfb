/**
 * Whether a Gemini CLI message record has the shape its recorder writes: a field it never writes,
 * or one of the wrong type, may hide content (a misspelt `toolCalls` hides every call), so such a
 * record is reported rather than read in part.
 */
import { contentParts } from "./parts";
import { isRecord } from "../shared/text";

/** The fields of a message record (chatRecordingTypes.ts: BaseMessageRecord and its extras). */
const MESSAGE_KEYS = new Set([
  "id",
  "timestamp",
  "type",
  "content",
  "displayContent",
  "toolCalls",
  "thoughts",
  "tokens",
  "model",
]);

/** A field of a message with a type Gemini CLI never writes (its content would be lost unseen). */
export function shapeProblem(value: Record<string, unknown>): string | undefined {
  // The recorder writes `content` on every message, if only as "": without it, a damaged key hid it.
  if (!("content" in value)) return "a message without `content`";
  // A key the recorder never writes may be one of its own, damaged (`toolCalls` misspelt hides
  // every call of the message): what it holds is not read, so it is reported.
  const unknown = Object.keys(value).find((k) => !MESSAGE_KEYS.has(k));
  if (unknown !== undefined) return `a message field Gemini CLI does not write (\`${unknown}\`)`;
  if (contentParts(value.content).malformed > 0) return "content with parts of an unknown shape";
  for (const key of ["toolCalls", "thoughts"]) {
    const field = value[key];
    if (field !== undefined && field !== null && !Array.isArray(field)) return `\`${key}\` is not a list`;
  }
  for (const tc of Array.isArray(value.toolCalls) ? value.toolCalls : []) {
    if (!isRecord(tc) || typeof tc.name !== "string" || (tc.args !== undefined && !isRecord(tc.args))) {
      return "a tool call without a name or with arguments that are not an object";
    }
    if (tc.result !== undefined && tc.result !== null && contentParts(tc.result).malformed > 0)
      return "a tool result of an unknown shape";
  }
  for (const t of Array.isArray(value.thoughts) ? value.thoughts : []) {
    if (!isRecord(t) || (t.description !== undefined && typeof t.description !== "string"))
      return "a thought of an unknown shape";
  }
  return undefined;
}
