/**
 * The Codex rollout records read as non-evidence, with why. Each entry was checked against the
 * runtime's own definitions (codex-rs protocol/src/protocol.rs `EventMsg` and its event structs,
 * protocol/src/models.rs `ResponseItem`, the rollout recorder's persistence policy in
 * rollout/src/policy.rs): none of them carries a message, a tool call, a tool result or a summary,
 * nor reports a change to the world (a file written or deleted, a commit, a process or agent
 * stopped, a workspace restored). Those that can are read: `undo_completed` (./undo), an
 * interrupted `sub_agent_activity`. Everything else is either read or reported as skipped.
 */

/** response_item payload types that hold nothing readable an evidence question could use. */
export const CODEX_IGNORED_ITEM_TYPES: Readonly<Record<string, string>> = {
  ghost_snapshot:
    "a git snapshot the runtime takes for undo (ResponseItem::GhostSnapshot): a commit object outside every branch, the worktree untouched",
  compaction: "the encrypted form of a server-side compaction; its readable summary is the `compacted` line",
  context_compaction: "the encrypted form of a server-side compaction; its readable summary is the `compacted` line",
  compaction_trigger: "a request to compact, not the compaction",
  additional_tools: "tool definitions offered to the model",
  other: "an item the runtime itself could not classify",
  "reasoning:encrypted": "reasoning with only encrypted content: no readable text",
};

/** Rollout line types (besides response_item and event_msg payloads) that carry no evidence. */
export const CODEX_IGNORED_LINE_TYPES: Readonly<Record<string, string>> = {
  world_state: "the runtime's model-visible environment baseline (a snapshot or merge patch) kept to resume diffing",
  inter_agent_communication_metadata:
    "delivery metadata (`trigger_turn`) of an inter-agent message; the message is its agent_message item",
};

/** event_msg payload types ignored on purpose, with why. */
export const CODEX_IGNORED_EVENT_TYPES: Readonly<Record<string, string>> = {
  token_count: "token usage and rate limits",
  task_started: "turn lifecycle",
  turn_started: "turn lifecycle",
  task_complete: "turn lifecycle without a last message (one with a last message is read as a message)",
  turn_complete: "turn lifecycle without a last message (one with a last message is read as a message)",
  turn_aborted: "turn lifecycle (an interruption); calls it cut short keep no result and stay UNKNOWN",
  context_compacted: "a compaction notice; the summary is the `compacted` line",
  thread_rolled_back:
    "turns dropped from the model's context (ThreadRolledBackEvent {num_turns}); the protocol's thread rollback reverts no local file",
  undo_started: "an undo beginning (the rollout recorder does not persist it); its undo_completed is read as the restore",
  thread_goal_updated: "goal bookkeeping; the goal's text is the user's own message",
  item_started: "item lifecycle; the completed item is what is read",
  agent_reasoning_section_break: "reasoning formatting",
  image_generation_begin: "the start of an image generation; the call item records it",
  image_generation_end: "a generated image (binary); the image_generation_call item records the call",
  web_search_begin: "the start of a search; its end or the search call item records it",
  session_configured: "runtime configuration",
  shutdown_complete: "runtime lifecycle (ShutdownComplete): the session ending; a call still running then keeps no end, UNKNOWN",
  background_event: "runtime notice (BackgroundEventEvent {message})",
  deprecation_notice: "runtime notice",
  warning: "runtime notice",
  error: "a runtime error talking to the model, not an agent action",
  stream_error: "a runtime error talking to the model, not an agent action",
  model_reroute: "runtime notice",
  mcp_startup_update: "runtime lifecycle",
  mcp_startup_complete: "runtime lifecycle",
  skills_update_available: "runtime notice",
  sub_agent_activity:
    "a subagent started or was messaged (SubAgentActivityKind); the spawn or message is its own call record (an interrupted one is read)",
  guardian_assessment: "a safety review of a proposed action; the action is its own call record, a denial reaches its output",
};

/**
 * item_completed item types that carry nothing to read, with why. (Paginated rollouts keep every
 * completed turn item; legacy ones only plans and sleeps.)
 */
export const CODEX_IGNORED_TURN_ITEMS: Readonly<Record<string, string>> = {
  ContextCompaction: "a compaction notice; the summary is the `compacted` line",
  Sleep: "the agent waited",
  SubAgentActivity: "a subagent started or was messaged; its own call record holds it (an interrupted one is read)",
  ImageGeneration: "a generated image (binary); the image_generation_call item records the call",
};
