/**
 * Deterministic, realistic coding-agent transcripts for the scale data set: the turns a runtime
 * streams (user asks, assistant reasoning, shell commands, file reads, edits and writes, MCP calls,
 * web fetches) and the tool output that comes back (test runs, listings, git history, stack
 * traces, JSON API responses), carrying the paths, commands, ids, numbers, timestamps and URLs
 * the analyzer turns into atoms. Rare acts (system config, package installs, service restarts,
 * pushes, privilege escalation) appear at rates seen in real sessions, so evidence questions have
 * something to find without every span matching.
 */
import type { SpanKind } from "@/lib/evidence/types";
import { rng } from "./rng";

export { rng } from "./rng";
import {
  USERS,
  REPOS,
  TICKETS,
  TOPICS,
  DIRS,
  NAMES,
  EXTS,
  VOCAB,
  NPM_PKGS,
  PIP_PKGS,
  APT_PKGS,
  SERVICES,
  SYSTEM_FILES,
  DOTFILES,
} from "./vocabulary";

export interface GeneratedSpan {
  seq: number;
  kind: Exclude<SpanKind, "SUMMARY">;
  role: string;
  toolName?: string;
  toolInput?: Record<string, unknown>;
  exitCode?: number;
  /** Milliseconds after the session started. */
  offsetMs: number;
  body: string;
}

export interface SessionProfile {
  seed: number;
  runtime: "claude-code" | "codex" | "openhands" | "swe-agent";
  user: string;
  repo: string;
  cwd: string;
  ticketPrefix: string;
  topic: string;
}

/** Runtimes in the proportions the seed draws them (Claude Code most often). */
const RUNTIMES: SessionProfile["runtime"][] = [
  "claude-code",
  "claude-code",
  "claude-code",
  "codex",
  "codex",
  "openhands",
  "swe-agent",
];

export function sessionProfile(seed: number): SessionProfile {
  const r = rng(seed * 7919 + 13);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const user = pick(USERS);
  const repo = pick(REPOS);
  const home = user === "ci" ? "/root" : `/home/${user}`;
  return {
    seed,
    runtime: pick(RUNTIMES),
    user,
    repo,
    cwd: `${home}/src/${repo}`,
    ticketPrefix: pick(TICKETS),
    topic: pick(TOPICS),
  };
}

/** A session's transcript, span by span, without holding it all in memory. */
export class TranscriptGenerator {
  private readonly r: () => number;
  private clock = 0;
  private seq = 0;
  private pendingResult: (() => Omit<GeneratedSpan, "seq" | "offsetMs">) | null = null;

  constructor(private readonly p: SessionProfile) {
    this.r = rng(p.seed);
  }

  next(): GeneratedSpan {
    this.clock += this.int(2_000, 40_000);
    const fields = this.pendingResult ? this.pendingResult() : this.turn();
    this.pendingResult = fields.kind === "TOOL_CALL" ? this.resultFor(fields) : null;
    return { seq: this.seq++, offsetMs: this.clock, ...fields };
  }

  // ---- helpers -------------------------------------------------------------------------------
  private int(lo: number, hi: number) {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  private chance(p: number) {
    return this.r() < p;
  }
  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)]!;
  }
  private hex(n: number) {
    let s = "";
    for (let i = 0; i < n; i++) s += "0123456789abcdef"[this.int(0, 15)];
    return s;
  }
  private uuid() {
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-a${this.hex(3)}-${this.hex(12)}`;
  }
  private iso() {
    const two = (n: number) => String(n).padStart(2, "0");
    return `2026-${two(this.int(1, 11))}-${two(this.int(1, 28))}T${two(this.int(0, 23))}:${two(this.int(0, 59))}:${two(this.int(0, 59))}Z`;
  }
  private rel() {
    return `${this.pick(DIRS)}/${this.pick(NAMES)}${this.pick(EXTS)}`;
  }
  private abs() {
    return `${this.p.cwd}/${this.rel()}`;
  }
  private ident() {
    return `${this.pick(NAMES)}${this.pick(["", "Id", "Count", "Map", "List", "Handler", "Config"])}`;
  }
  private ticket() {
    return `${this.p.ticketPrefix}-${this.int(100, 4999)}`;
  }
  private sentence(density = 0.05) {
    const n = this.int(7, 20);
    const ws: string[] = [];
    for (let i = 0; i < n; i++) {
      const x = this.r();
      if (x < density * 0.5) ws.push(this.rel());
      else if (x < density * 0.8)
        ws.push(`${this.int(2, 900)} ${this.pick(["ms", "MB", "files", "tests", "lines", "requests"])}`);
      else if (x < density) ws.push(`\`${this.ident()}()\``);
      else ws.push(this.pick(VOCAB));
    }
    return ws.join(" ").replace(/^./, (c) => c.toUpperCase()) + this.pick([".", ".", ".", ":", "?"]);
  }
  private prose(sentences: number, density?: number) {
    const out: string[] = [];
    for (let i = 0; i < sentences; i++) out.push(this.sentence(density));
    return out.join(" ");
  }
  private codeLine() {
    const x = this.r();
    if (x < 0.12) return "";
    if (x < 0.2) return "}";
    if (x < 0.3) return `  // ${this.prose(1, 0).slice(0, 70)}`;
    if (x < 0.4) return `import { ${this.ident()}, ${this.ident()} } from "./${this.pick(NAMES)}";`;
    if (x < 0.55)
      return `  const ${this.ident()} = await ${this.pick(NAMES)}.${this.pick(VOCAB)}(${this.pick(["req", "id", "opts", "ctx"])});`;
    if (x < 0.65) return `  if (!${this.ident()}) throw new Error("${this.pick(VOCAB)} not found");`;
    if (x < 0.75) return `  return { ${this.pick(VOCAB)}: ${this.int(0, 999)}, ${this.pick(VOCAB)}: ${this.ident()} };`;
    if (x < 0.85) return `export async function ${this.ident()}(${this.pick(VOCAB)}: string): Promise<void> {`;
    return `  ${this.ident()}.${this.pick(VOCAB)} = ${this.pick(["true", "false", "null", "[]", String(this.int(0, 99))])};`;
  }
  private code(lines: number) {
    const out: string[] = [];
    for (let i = 0; i < lines; i++) out.push(this.codeLine());
    return out.join("\n");
  }

  // ---- turns ---------------------------------------------------------------------------------
  private turn(): Omit<GeneratedSpan, "seq" | "offsetMs"> {
    const x = this.r();
    if (x < 0.03) return this.userMessage();
    if (x < 0.21) return this.assistantMessage();
    if (x < 0.33) return { kind: "MESSAGE", role: "reasoning", body: this.prose(this.int(2, 12), 0) };
    return this.toolCall();
  }

  private userMessage(): Omit<GeneratedSpan, "seq" | "offsetMs"> {
    const body = this.pick([
      () =>
        `Please ${this.p.topic} (${this.ticket()}). The failing run is https://ci.example.com/${this.p.repo}/runs/${this.int(10000, 99999)}.`,
      () => `Can you also check ${this.rel()}? It started failing after ${this.hex(7)} was merged on ${this.iso()}.`,
      () => `Looks good. Don't touch the migrations in migrations/ and do not push to main yet.`,
      () => `The staging box needs nginx and the app config under /etc/app/. Keep the TTL at 300 seconds.`,
      () => `Continue.`,
    ])();
    return { kind: "MESSAGE", role: "user", body };
  }

  private assistantMessage(): Omit<GeneratedSpan, "seq" | "offsetMs"> {
    const body = this.pick([
      () => this.prose(this.int(1, 3), 0),
      () => this.prose(this.int(1, 4), 0),
      () => this.prose(this.int(2, 6), 0),
      () => this.prose(this.int(2, 6)),
      () =>
        `I updated ${this.rel()} and ${this.rel()}: the timeout is now ${this.int(2, 30)}s and the retry limit ${this.int(2, 9)}. All ${this.int(20, 400)} tests pass (${this.ticket()}).`,
      () =>
        `I did not change ${this.rel()}; the failure comes from ${this.rel()}:${this.int(10, 400)}. No files were changed in migrations/.`,
      () =>
        `Summary so far: ${this.int(2, 12)} files touched, commit ${this.hex(12)}, run ${this.uuid()} took ${this.int(1, 90)}.${this.int(10, 99)}s. Next I will look at ${this.rel()}.`,
      () => `I skipped the e2e suite because it needs the staging database; the unit suite took ${this.int(3, 120)}s.`,
    ])();
    return { kind: "MESSAGE", role: "assistant", body };
  }

  private shellCommand(): string {
    const x = this.r();
    // Read-only and build/test commands dominate real sessions.
    if (x < 0.66)
      return this.pick([
        () => `rg -n "${this.ident()}" ${this.pick(DIRS)} --type ts`,
        () => `ls -la ${this.pick(DIRS)}`,
        () => `cat ${this.rel()} | head -n ${this.int(20, 200)}`,
        () => "git status && git diff --stat",
        () => `git log --oneline -${this.int(3, 20)}`,
        () => `npm test -- --run ${this.rel()}`,
        () => `python3 -m pytest tests/test_${this.pick(NAMES)}.py -q`,
        () => "go test ./... -count=1",
        () => `grep -rn "${this.pick(VOCAB)}" ${this.pick(DIRS)}`,
        () => `find ${this.pick(DIRS)} -name "*${this.pick(EXTS)}" | wc -l`,
        () => `curl -s https://api.example.com/v1/${this.pick(NAMES)}/${this.uuid()}`,
        () => "npm run build",
        () => `wc -l ${this.rel()} ${this.rel()}`,
      ])();
    if (x < 0.95)
      return this.pick([
        () => `sed -i 's/${this.pick(VOCAB)}/${this.pick(VOCAB)}/g' ${this.rel()}`,
        () => `mkdir -p build/${this.pick(NAMES)} && cp ${this.rel()} build/`,
        () =>
          `git add -A && git commit -m "${this.prose(1, 0)
            .slice(0, 50)
            .replace(/["?:.]/g, "")} (${this.ticket()})"`,
        () => `rm -f ${this.rel()}`,
        () => `mv ${this.rel()} ${this.rel()}`,
        () => `echo "${this.pick(VOCAB)}=${this.int(1, 99)}" >> .env.local`,
        () => `chmod +x scripts/${this.pick(NAMES)}.sh`,
        () => `npx prisma migrate dev --name ${this.pick(NAMES)}_${this.pick(VOCAB)}`,
        () =>
          `psql "$DATABASE_URL" -c "update ${this.pick(NAMES)} set ${this.pick(VOCAB)} = ${this.int(1, 9)} where id = ${this.int(1, 9999)}"`,
        () => `curl -s -X POST https://api.example.com/v1/${this.pick(NAMES)} -d '{"id":"${this.uuid()}"}'`,
        () => `docker compose up -d ${this.pick(["db", "redis", "worker"])}`,
      ])();
    if (x < 0.99)
      return this.pick([
        () => `npm install ${this.pick(NPM_PKGS)}`,
        () => `pip install ${this.pick(PIP_PKGS)}`,
        () => `git push origin ${this.pick(["fix", "feat", "chore"])}/${this.ticket().toLowerCase()}`,
        () => `npm uninstall ${this.pick(NPM_PKGS).split("@")[0]}`,
      ])();
    // The rare acts a compliance reviewer asks about.
    return this.pick([
      () => `sudo apt-get install -y ${this.pick(APT_PKGS)}`,
      () => `sudo systemctl restart ${this.pick(SERVICES)}`,
      () => `echo 'export PATH=$HOME/.local/bin:$PATH' >> ~/.bashrc`,
      () => `sudo tee ${this.pick(SYSTEM_FILES)} < deploy/${this.pick(NAMES)}.conf`,
      () => `git config --global user.email ${this.p.user}@example.com`,
      () => `sudo chmod 644 ${this.pick(SYSTEM_FILES)}`,
      () => `brew install ${this.pick(APT_PKGS)}`,
    ])();
  }

  private toolCall(): Omit<GeneratedSpan, "seq" | "offsetMs"> {
    const x = this.r();
    const shell = this.p.runtime === "codex" ? "shell" : this.p.runtime === "openhands" ? "execute_bash" : "Bash";
    if (x < 0.4) {
      const command = this.shellCommand();
      const toolInput =
        shell === "shell"
          ? { command: ["bash", "-lc", command], workdir: this.p.cwd, timeout_ms: 120000 }
          : shell === "execute_bash"
            ? { command, is_input: false, thought: this.prose(1, 0) }
            : { command, description: this.prose(1, 0).slice(0, 60) };
      return { kind: "TOOL_CALL", role: "assistant", toolName: shell, toolInput, body: JSON.stringify(toolInput) };
    }
    if (x < 0.62) {
      const y = this.r();
      const toolInput =
        y < 0.5
          ? { file_path: this.abs() }
          : y < 0.8
            ? { pattern: this.ident(), path: this.pick(DIRS), output_mode: "content" }
            : { pattern: `**/*${this.pick(EXTS)}` };
      const toolName = y < 0.5 ? "Read" : y < 0.8 ? "Grep" : "Glob";
      return { kind: "TOOL_CALL", role: "assistant", toolName, toolInput, body: JSON.stringify(toolInput) };
    }
    if (x < 0.9) {
      const rare = this.r();
      const file_path =
        rare < 0.003
          ? this.pick(SYSTEM_FILES)
          : rare < 0.006
            ? this.pick(DOTFILES).replace("~", this.p.cwd.split("/src/")[0]!)
            : this.abs();
      const toolInput = this.chance(0.7)
        ? { file_path, old_string: this.code(this.int(1, 4)), new_string: this.code(this.int(1, 6)) }
        : { file_path, content: this.code(this.int(5, 40)) };
      const toolName = "old_string" in toolInput ? "Edit" : "Write";
      return { kind: "TOOL_CALL", role: "assistant", toolName, toolInput, body: JSON.stringify(toolInput) };
    }
    if (x < 0.95) {
      const toolInput = { url: `https://docs.example.com/${this.pick(NAMES)}/${this.pick(VOCAB)}`, prompt: this.prose(1, 0) };
      return { kind: "TOOL_CALL", role: "assistant", toolName: "WebFetch", toolInput, body: JSON.stringify(toolInput) };
    }
    const toolName = this.pick([
      "mcp__github__create_pull_request",
      "mcp__linear__update_issue",
      "mcp__github__add_comment",
      "mcp__sentry__resolve_issue",
    ]);
    const toolInput = { issue: this.ticket(), title: this.prose(1, 0).slice(0, 60), body: this.prose(this.int(1, 3)) };
    return { kind: "TOOL_CALL", role: "assistant", toolName, toolInput, body: JSON.stringify(toolInput) };
  }

  private resultFor(call: Omit<GeneratedSpan, "seq" | "offsetMs">): () => Omit<GeneratedSpan, "seq" | "offsetMs"> {
    return () => {
      const toolName = call.toolName;
      let body: string;
      let exitCode: number | undefined;
      if (toolName === "Read") body = this.numberedFile(this.int(10, this.chance(0.03) ? 600 : 90));
      else if (toolName === "Grep")
        body = this.lines(this.int(2, 25), () => `${this.rel()}:${this.int(1, 900)}:  ${this.codeLine().trim()}`);
      else if (toolName === "Glob") body = this.lines(this.int(3, 40), () => this.abs());
      else if (toolName === "Edit" || toolName === "Write")
        body = `The file ${(call.toolInput as { file_path: string }).file_path} has been updated.`;
      else if (toolName === "WebFetch") body = this.jsonDoc(this.int(1, 6));
      else if (toolName?.startsWith("mcp__"))
        body = JSON.stringify({
          id: this.uuid(),
          url: `https://github.com/acme/${this.p.repo}/pull/${this.int(10, 3000)}`,
          state: "open",
          created_at: this.iso(),
        });
      else {
        exitCode = this.chance(0.12) ? 1 : 0;
        body = this.commandOutput(exitCode);
      }
      return {
        kind: "TOOL_RESULT",
        role: "tool",
        ...(toolName ? { toolName } : {}),
        ...(exitCode !== undefined ? { exitCode } : {}),
        body,
      };
    };
  }

  private lines(n: number, line: () => string) {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(line());
    return out.join("\n");
  }

  private numberedFile(n: number) {
    return this.lines(n, () => this.codeLine())
      .split("\n")
      .map((l, i) => `${String(i + 1).padStart(5)}\t${l}`)
      .join("\n");
  }

  private jsonDoc(items: number) {
    return JSON.stringify({
      data: Array.from({ length: items }, () => ({
        id: this.uuid(),
        status: this.pick(["active", "pending", "archived"]),
        created_at: this.iso(),
        url: `https://api.example.com/v2/${this.pick(NAMES)}/${this.int(1, 99999)}`,
        size: this.int(1, 1_000_000),
      })),
      next_cursor: this.hex(24),
    });
  }

  private commandOutput(exitCode: number) {
    const y = this.r();
    if (exitCode !== 0)
      return `Error: ${this.pick(VOCAB)} ${this.pick(VOCAB)} failed\n    at ${this.ident()} (${this.abs()}:${this.int(1, 400)}:${this.int(1, 80)})\n    at ${this.ident()} (${this.abs()}:${this.int(1, 400)}:${this.int(1, 80)})\nexit status 1`;
    if (y < 0.25)
      return `${this.lines(this.int(3, 20), () => ` \u2713 ${this.rel()} (${this.int(1, 40)} tests) ${this.int(2, 900)}ms`)}\n\n Test Files  ${this.int(3, 40)} passed\n      Tests  ${this.int(20, 900)} passed\n   Duration  ${this.int(1, 60)}.${this.int(10, 99)}s`;
    if (y < 0.45)
      return `total ${this.int(10, 900)}\n${this.lines(this.int(3, 25), () => `-rw-r--r--  1 ${this.p.user} staff ${this.int(100, 90000)} Nov ${this.int(1, 28)} 12:${this.int(10, 59)} ${this.pick(NAMES)}${this.pick(EXTS)}`)}`;
    if (y < 0.6) return this.lines(this.int(2, 10), () => `${this.hex(7)} ${this.prose(1, 0).slice(0, 60)} (${this.ticket()})`);
    if (y < 0.72)
      return `On branch main\nChanges not staged for commit:\n${this.lines(this.int(1, 10), () => `\tmodified:   ${this.rel()}`)}\n`;
    if (y < 0.85)
      return `[main ${this.hex(7)}] ${this.prose(1, 0).slice(0, 50)}\n ${this.int(1, 12)} files changed, ${this.int(1, 400)} insertions(+), ${this.int(0, 200)} deletions(-)`;
    return this.lines(
      this.int(3, 15),
      () =>
        `${this.iso()} INFO [${this.pick(NAMES)}] ${this.pick(["request completed", "job finished", "cache miss", "retrying"])} in ${this.int(1, 900)}ms id=${this.uuid()}`,
    );
  }
}
