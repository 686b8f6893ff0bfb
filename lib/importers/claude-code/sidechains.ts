/**
 * Subagent work Claude Code 1.0.x wrote into the parent's own file: each Task call's subagent
 * conversation as records with `isSidechain: true` and no `agentId`, chained by parentUuid from a
 * first record (parentUuid null) whose text is the Task's prompt. Their spans stay in the parent's
 * session, in file order, but are the subagent's: agentId is the uuid of the chain's first record
 * (the sourceId of that record's span), agentType the `subagent_type` of the Task call whose prompt
 * opened the chain. The chain is followed through every record of the file (hook notices, records
 * that could not be read), so a link that gives no span does not split a subagent in two.
 */
import { resultText, sidechainAgent } from "./blocks";
import { isRecord } from "../shared/text";

export interface InlineAgent {
  agentId: string;
  agentType?: string;
}

export class InlineSidechains {
  /** The file's inline sidechain records, by uuid (the first pass notes them). */
  private readonly inline = new Set<string>();
  /** The first record of the chain each inline sidechain record belongs to, by uuid (found once). */
  private readonly rootOf = new Map<string, string>();
  /** Each chain's agent, by the uuid of its first record. */
  private readonly agents = new Map<string, InlineAgent>();
  /** Subagent types of Task calls whose sidechain has not opened yet, by prompt (in call order). */
  private readonly typesByPrompt = new Map<string, string[]>();

  /** `parentOf`: every record's parentUuid by its uuid, from the first pass over the file. */
  constructor(private readonly parentOf: ReadonlyMap<string, unknown>) {}

  /** Whether a record is one (no agentId: a subagent's own file gives one). */
  static holds(record: Record<string, unknown>): boolean {
    return record.isSidechain === true && sidechainAgent(record) === undefined;
  }

  /** From the first pass: a record of the file, noted when it is one. */
  note(record: Record<string, unknown>): void {
    if (InlineSidechains.holds(record) && typeof record.uuid === "string") this.inline.add(record.uuid);
  }

  /** A Task/Agent call: the sidechain that opens with its prompt is its subagent's. */
  noteCall(input: unknown): void {
    if (this.inline.size === 0 || !isRecord(input) || typeof input.prompt !== "string") return;
    const type = typeof input.subagent_type === "string" && input.subagent_type !== "" ? input.subagent_type : "general-purpose";
    const queue = this.typesByPrompt.get(input.prompt);
    if (queue) queue.push(type);
    else this.typesByPrompt.set(input.prompt, [type]);
  }

  /**
   * The agent of an inline sidechain record (undefined for any other record): that of the first
   * record of its chain, which a first record's prompt (`content`) types.
   */
  agentOf(record: Record<string, unknown>, content?: unknown): InlineAgent | undefined {
    if (!InlineSidechains.holds(record) || typeof record.uuid !== "string") return undefined;
    const root = this.root(record.uuid);
    let agent = this.agents.get(root);
    if (!agent) {
      const prompt =
        root === record.uuid && (typeof content === "string" || Array.isArray(content)) ? resultText(content) : undefined;
      agent = this.opened(root, prompt);
      this.agents.set(root, agent);
    }
    return agent;
  }

  /** The first record of `uuid`'s chain: up by parentUuid while the parent is an inline sidechain record. */
  private root(uuid: string): string {
    const path: string[] = [];
    let at = uuid;
    let root: string | undefined;
    for (;;) {
      const known = this.rootOf.get(at);
      if (known !== undefined) {
        root = known;
        break;
      }
      path.push(at);
      const parent = this.parentOf.get(at);
      if (typeof parent !== "string" || !this.inline.has(parent) || path.length > this.inline.size) break;
      at = parent;
    }
    root ??= at;
    for (const u of path) this.rootOf.set(u, root);
    return root;
  }

  private opened(root: string, prompt: string | undefined): InlineAgent {
    const queue = prompt === undefined ? undefined : this.typesByPrompt.get(prompt);
    const agentType = queue?.shift();
    if (queue?.length === 0) this.typesByPrompt.delete(prompt!);
    return { agentId: root, ...(agentType ? { agentType } : {}) };
  }
}
