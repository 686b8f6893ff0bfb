/**
 * Subagent work Claude Code 1.0.x wrote into the parent's own file: each Task call's subagent
 * conversation as records with `isSidechain: true` and no `agentId`, chained by parentUuid from a
 * first record (parentUuid null) whose text is the Task's prompt. Their spans stay in the parent's
 * session, in file order, but are the subagent's: agentId is the uuid of the chain's first record
 * (the sourceId of that record's span), agentType the `subagent_type` of the Task call whose prompt
 * opened the chain.
 */
import { sidechainAgent } from "./claude-code-blocks";
import { isRecord } from "./text";

export interface InlineAgent {
  agentId: string;
  agentType?: string;
}

export class InlineSidechains {
  /** Whether the file holds any such record (the first pass tells), so prompts are kept only then. */
  private present = false;
  /** Each inline sidechain record's agent, by its uuid, for the records that follow it. */
  private readonly agents = new Map<string, InlineAgent>();
  /** Subagent types of Task calls whose sidechain has not opened yet, by prompt (in call order). */
  private readonly typesByPrompt = new Map<string, string[]>();

  /** Whether a record is one (no agentId: a subagent's own file gives one). */
  static holds(record: Record<string, unknown>): boolean {
    return record.isSidechain === true && sidechainAgent(record) === undefined;
  }

  /** From the first pass: the file holds an inline sidechain record. */
  notePresent(): void {
    this.present = true;
  }

  /** A Task/Agent call: the sidechain that opens with its prompt is its subagent's. */
  noteCall(input: unknown): void {
    if (!this.present || !isRecord(input) || typeof input.prompt !== "string") return;
    const type = typeof input.subagent_type === "string" && input.subagent_type !== "" ? input.subagent_type : "general-purpose";
    const queue = this.typesByPrompt.get(input.prompt);
    if (queue) queue.push(type);
    else this.typesByPrompt.set(input.prompt, [type]);
  }

  /**
   * The agent of an inline sidechain record (undefined for any other record): its parent's, or, for
   * the first record of a chain (or one whose parent the file lacks), a new one named by its uuid.
   */
  agentOf(record: Record<string, unknown>, content: unknown): InlineAgent | undefined {
    if (!InlineSidechains.holds(record) || typeof record.uuid !== "string") return undefined;
    const parent = typeof record.parentUuid === "string" ? this.agents.get(record.parentUuid) : undefined;
    const agent = parent ?? this.opened(record.uuid, promptOf(content));
    this.agents.set(record.uuid, agent);
    return agent;
  }

  private opened(uuid: string, prompt: string | undefined): InlineAgent {
    const queue = prompt === undefined ? undefined : this.typesByPrompt.get(prompt);
    const agentType = queue?.shift();
    if (queue?.length === 0) this.typesByPrompt.delete(prompt!);
    return { agentId: uuid, ...(agentType ? { agentType } : {}) };
  }
}

/** A first record's prompt: its string content, or its text blocks'. */
function promptOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content
    .filter((b) => isRecord(b) && b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string);
  return texts.length > 0 ? texts.join("\n") : undefined;
}
