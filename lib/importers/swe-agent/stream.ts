/**
 * SWE-agent trajectory streams (see ./index): a stream's steps (`trajectory`) and history
 * entries (`history`) merged into one session's spans, never counted twice, with the `info`
 * record as a system message.
 */
import type { DraftSpan, ImportCollector, SessionDraft } from "../shared/builder";
import {
  BLOCKED,
  commandLineCall,
  contentText,
  functionCalls,
  outcomeOf,
  thinkingText,
  workingDirOf,
  type ToolCallShape,
} from "./steps";
import { isRecord, str, titleFrom, utf8 } from "../shared/text";

export type Value = Record<string, unknown>;

/** One record of a stream: its number, and its value when it parsed. */
export interface Rec {
  position: number;
  value?: Value;
  /** The record's bytes as the file holds them. */
  raw: Uint8Array;
}

export interface Stream {
  steps: Rec[];
  entries: Rec[];
  info?: Rec;
  agentId?: string;
}

/** Emits one stream's spans into the session, merging steps with their history entries. */
export class StreamWriter {
  private cwd: string | undefined;

  constructor(
    private readonly collector: ImportCollector,
    private readonly draft: SessionDraft,
    private readonly stream: Stream,
  ) {}

  write(): void {
    const { steps, entries, info } = this.stream;
    for (const r of steps) this.check(r, STEP_FIELDS);
    for (const r of entries) this.check(r, ENTRY_FIELDS);
    if (info) this.check(info, INFO_FIELDS);
    const hasHistory = entries.some((e) => e.value);
    let next = 0;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      const e = entry.value;
      if (!e) continue;
      if (e.is_demo === true || e.message_type === "demonstration") {
        this.message(entry.position, "demonstration", contentText(e.content), e);
        continue;
      }
      const role = str(e.role) ?? "user";
      const isAction = role === "assistant" && (e.message_type === "action" || "action" in e);
      if (!isAction) {
        this.message(entry.position, role, contentText(e.content), e);
        continue;
      }
      const following = entries[i + 1];
      const obsEntry = following?.value && isObservation(following.value) ? following : undefined;
      if (obsEntry) i++;
      const k = matchStep(steps, next, e);
      if (k >= 0) {
        for (let j = next; j < k; j++) this.step(steps, j, hasHistory);
        next = k + 1;
        this.act({ step: steps[k], entry, obsEntry, executed: true });
      } else {
        this.act({ entry, obsEntry, executed: true });
      }
    }
    for (let j = next; j < steps.length; j++) this.step(steps, j, hasHistory);
    if (this.stream.info?.value) this.info(this.stream.info);
  }

  /** A field of the wrong type loses what it held: the record is still used, its session incomplete. */
  private check(r: Rec, fields: Readonly<Record<string, (v: unknown) => boolean>>): void {
    if (!r.value) return;
    for (const [key, ok] of Object.entries(fields)) {
      const v = r.value[key];
      if (v !== undefined && !ok(v)) {
        this.collector.skip(r.position, `\`${key}\` is not of the type SWE-agent writes; its content is lost`, this.draft);
      }
    }
  }

  /** A step the history does not show (or a file without history). */
  private step(steps: Rec[], j: number, hasHistory: boolean): void {
    const s = steps[j]!;
    if (!s.value) return;
    const observation = str(s.value.observation) ?? "";
    const ran = !hasHistory ? undefined : observation.trim() !== "";
    const nextQuery = steps[j + 1]?.value?.query;
    const blocked = Array.isArray(nextQuery) && BLOCKED.test(contentText(lastOf(nextQuery)?.content));
    this.act({ step: s, ...(ran === undefined ? {} : { executed: ran }), blocked });
  }

  private act(a: { step?: Rec; entry?: Rec; obsEntry?: Rec; executed?: boolean; blocked?: boolean }): void {
    const sv = a.step?.value;
    const ev = a.entry?.value;
    const at = a.step?.position ?? a.entry!.position;
    const action = str(sv?.action) ?? str(ev?.action) ?? "";
    const thought = str(sv?.thought) || str(ev?.thought) || str(sv?.response) || contentText(ev?.content);
    const exitNotice = action.trim() === "" && /^Exit(?:ed)? due to /.test(thought);
    const before = this.cwd;
    const after = workingDirOf(sv?.state);
    if (after) {
      this.cwd = after;
      this.draft.cwd ??= after;
    }
    const cwd = before ?? after;
    const thinking = ev ? thinkingText(ev) : "";
    if (thinking !== "") this.span(at, { kind: "MESSAGE", role: "reasoning", body: utf8(thinking) });
    if (thought !== "") this.span(at, { kind: "MESSAGE", role: exitNotice ? "system" : "assistant", body: utf8(thought) });
    const calls: ToolCallShape[] = ev ? functionCalls(ev) : [];
    if (calls.length === 0 && action.trim() !== "" && action.trim() !== "exit") calls.push(commandLineCall(action));
    const drafts = calls.map((c) =>
      this.span(at, {
        kind: "TOOL_CALL",
        toolName: c.toolName,
        toolInput: c.toolInput,
        body: utf8(c.args),
        ...(c.sourceId ? { sourceId: c.sourceId } : {}),
        ...(cwd ? { cwd } : {}),
      }),
    );
    const observation = sv ? (str(sv.observation) ?? "") : undefined;
    const shown = a.obsEntry?.value ? contentText(a.obsEntry.value.content) : undefined;
    const call = drafts[0];
    if (call) {
      call.outcome = outcomeOf({
        ...(observation !== undefined ? { observation } : {}),
        ...(shown !== undefined ? { shown } : {}),
        ...(a.executed !== undefined ? { executed: a.executed } : {}),
        ...(a.blocked ? { blocked: true } : {}),
        toolName: call.toolName!,
      });
      for (const extra of drafts.slice(1)) extra.outcome = call.outcome;
    }
    const resultText = observation !== undefined && observation.trim() !== "" ? observation : shown;
    const resultAt = observation !== undefined && observation.trim() !== "" ? at : (a.obsEntry?.position ?? at);
    if (resultText !== undefined && resultText.trim() !== "") {
      this.span(
        resultAt,
        call
          ? { kind: "TOOL_RESULT", toolName: call.toolName!, body: utf8(resultText), ...(call.cwd ? { cwd: call.cwd } : {}) }
          : { kind: "MESSAGE", role: "system", body: utf8(resultText) },
      );
    }
    // Records merged into these spans, or that had nothing to show (an empty requery).
    for (const r of [a.step, a.entry, a.obsEntry]) if (r) this.collector.use(r.position);
  }

  private span(position: number, s: Omit<DraftSpan, "sourceLine">): DraftSpan {
    const agentId = this.stream.agentId;
    return this.draft.add({ ...s, sourceLine: position, ...(agentId ? { agentId } : {}) });
  }

  private message(position: number, role: string, text: string, e: Value): void {
    const thinking = thinkingText(e);
    if (thinking !== "") this.span(position, { kind: "MESSAGE", role: "reasoning", body: utf8(thinking) });
    if (text === "") {
      this.collector.use(position);
      return;
    }
    this.span(position, { kind: "MESSAGE", role, body: utf8(text) });
    if (role === "user" && this.draft.title === undefined) this.draft.title = issueTitle(text);
  }

  private info(rec: Rec): void {
    this.span(rec.position, { kind: "MESSAGE", role: "system", body: rec.raw.slice() });
  }
}

const isString = (v: unknown) => typeof v === "string";
const isStringOrNull = (v: unknown) => v === null || typeof v === "string";
const isListOrNull = (v: unknown) => v === null || Array.isArray(v);

const STEP_FIELDS = { action: isString, observation: isString, thought: isString, response: isString };
const ENTRY_FIELDS = {
  role: isString,
  content: (v: unknown) => typeof v === "string" || Array.isArray(v),
  thought: isString,
  action: isStringOrNull,
  tool_calls: isListOrNull,
  thinking_blocks: isListOrNull,
};
const INFO_FIELDS = { exit_status: isStringOrNull, submission: isStringOrNull };

function isObservation(e: Value): boolean {
  if (e.is_demo === true) return false;
  const role = str(e.role);
  return (role === "user" || role === "tool") && (e.message_type === undefined || e.message_type === "observation");
}

function lastOf(list: unknown[]): Value | undefined {
  const last = list[list.length - 1];
  return isRecord(last) ? last : undefined;
}

/**
 * The step recording the entry's act: the next one with the same action and the same thought or
 * response, else the very next step if its action is the same.
 */
function matchStep(steps: Rec[], from: number, e: Value): number {
  const action = str(e.action) ?? "";
  const thought = str(e.thought);
  const content = contentText(e.content);
  for (let k = from; k < steps.length; k++) {
    const s = steps[k]!.value;
    if (!s) continue;
    if ((str(s.action) ?? "") !== action) continue;
    if ((thought !== undefined && str(s.thought) === thought) || str(s.response) === content) return k;
  }
  // The next step with the same action, when its text was edited (curated demonstration files).
  const first = steps.slice(from).find((r) => r.value);
  return first?.value && (str(first.value.action) ?? "") === action && action.trim() !== "" ? steps.indexOf(first) : -1;
}

/** The issue's first line, from SWE-agent's instance template ("ISSUE:\n<text>"), else the first line. */
function issueTitle(text: string): string | undefined {
  const issue = /(?:^|\n)ISSUE:\s*\n?([^\n]*\S[^\n]*)/.exec(text);
  return titleFrom(issue ? issue[1]! : text);
}
