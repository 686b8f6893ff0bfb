/**
 * A deterministic corpus of realistic spans for the engine benchmark, in the proportions of a
 * coding-agent session: assistant prose and reasoning; tool calls in the shapes of Claude Code,
 * Codex CLI and OpenHands (shell commands, file writes and edits with their content, reads);
 * tool results (source files, listings, git and test output, build logs, JSON API responses);
 * and a few multi-megabyte dumps, which, as in real transcripts, carry most of the bytes.
 */
import type { SpanInput, SpanKind } from "@/lib/evidence/types";

export interface BenchSpan {
  input: SpanInput;
  label: string;
}

/** Small fast PRNG (mulberry32): the corpus is the same on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const enc = new TextEncoder();

export function generateCorpus(targetBytes: number, seed = 42): BenchSpan[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const chance = (p: number) => r() < p;
  const hex = (n: number) => {
    let s = "";
    for (let i = 0; i < n; i++) s += "0123456789abcdef"[int(0, 15)];
    return s;
  };
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const two = (n: number) => String(n).padStart(2, "0");
  const iso = () =>
    `2026-${two(int(1, 12))}-${two(int(1, 28))}T${two(int(0, 23))}:${two(int(0, 59))}:${two(int(0, 59))}.${String(int(0, 999)).padStart(3, "0")}Z`;

  const dirs = [
    "src",
    "lib",
    "app",
    "components",
    "tests",
    "scripts",
    "config",
    "lib/server",
    "src/routes",
    "packages/core/src",
    "internal/store",
    "cmd/api",
  ];
  const names = [
    "index",
    "server",
    "config",
    "utils",
    "handler",
    "routes",
    "schema",
    "client",
    "worker",
    "store",
    "parser",
    "auth",
    "billing",
    "session",
    "queue",
    "cache",
  ];
  const exts = [".ts", ".tsx", ".py", ".go", ".rs", ".json", ".yaml", ".md", ".sql"];
  const rel = () => `${pick(dirs)}/${pick(names)}${pick(exts)}`;
  const abs = () => `/home/dev/app/${rel()}`;
  const vocab =
    "the a to of and in that is for it with as on this be are was by at or from which but have has can will we function value file test error config module request response server client data type return import export const async update change check run build handler route query cache user session token retry timeout field schema migration parser result output input state logic branch case path option default".split(
      " ",
    );
  const ident = () => `${pick(names)}${pick(["", "Id", "Count", "Map", "List", "Handler", "Config"])}`;

  const sentence = () => {
    const n = int(8, 22);
    const ws: string[] = [];
    for (let i = 0; i < n; i++) {
      const x = r();
      if (x < 0.03) ws.push(rel());
      else if (x < 0.04) ws.push(`${int(1, 500)} ${pick(["ms", "MB", "files", "tests", "lines"])}`);
      else if (x < 0.05) ws.push(`\`${ident()}()\``);
      else if (x < 0.052) ws.push(pick(["did not", "didn't", "no", "skipped"]));
      else ws.push(pick(vocab));
    }
    return ws.join(" ").replace(/^./, (c) => c.toUpperCase()) + pick([".", ".", ".", "?", ":"]);
  };
  const prose = (n: number) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(sentence());
    return out.join(" ");
  };

  const codeLine = () => {
    const x = r();
    if (x < 0.12) return "";
    if (x < 0.2) return "}";
    if (x < 0.3) return `  // ${prose(1).slice(0, 70)}`;
    if (x < 0.38) return `import { ${ident()}, ${ident()} } from "${pick(["./", "../", "@app/"])}${pick(names)}";`;
    if (x < 0.52)
      return `  const ${ident()} = await ${pick(names)}.${pick(vocab)}(${pick(["req", "id", "opts", "ctx", "input"])});`;
    if (x < 0.6) return `  if (!${ident()}) throw new Error("${pick(vocab)} ${pick(vocab)} not found");`;
    if (x < 0.68) return `  return { ${pick(vocab)}: ${int(0, 999)}, ${pick(vocab)}: ${ident()} };`;
    if (x < 0.76)
      return `export async function ${ident()}(${pick(vocab)}: ${pick(["string", "number", "Request", "Options"])}): Promise<void> {`;
    if (x < 0.84)
      return `    for (const ${pick(["x", "item", "row", "entry"])} of ${ident()}) ${pick(names)}.push(${pick(["x", "item", "row"])});`;
    if (x < 0.92) return `    logger.${pick(["info", "debug", "warn"])}(\`${pick(vocab)} \${${ident()}}\`);`;
    return `  ${ident()}.${pick(vocab)} = ${pick(["true", "false", "null", "[]", "{}", String(int(0, 99))])};`;
  };
  const code = (lines: number) => {
    const out: string[] = [];
    for (let i = 0; i < lines; i++) out.push(codeLine());
    return out.join("\n");
  };
  const logLine = () => {
    const x = r();
    const head = `${iso()} ${pick(["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"])} [${pick(names)}]`;
    if (x < 0.3)
      return `${head} ${pick(["request completed", "job finished", "cache miss", "connected to database", "retrying"])} in ${int(1, 900)}ms`;
    if (x < 0.45)
      return `${head} GET /api/v1/${pick(names)}/${int(1, 99999)} ${pick([200, 200, 201, 304, 404, 500])} ${int(1, 900)}ms`;
    if (x < 0.55) return `${head} session=${uuid()} user=${int(1000, 9999)} ${pick(vocab)} ${pick(vocab)}`;
    if (x < 0.65) return `${head} loaded ${rel()} (${int(1, 900)} KB)`;
    if (x < 0.7) return `${head} worker pid=${int(100, 60000)} exited with code ${int(0, 2)}`;
    return `${head} ${prose(1)}`;
  };
  const logs = (lines: number) => {
    const out: string[] = [];
    for (let i = 0; i < lines; i++) out.push(logLine());
    return out.join("\n");
  };
  const jsonDoc = (items: number) =>
    JSON.stringify(
      {
        data: Array.from({ length: items }, () => ({
          id: uuid(),
          name: `${pick(vocab)} ${pick(vocab)}`,
          status: pick(["active", "pending", "archived"]),
          created_at: iso(),
          url: `https://api.example.com/v2/${pick(names)}/${int(1, 99999)}`,
          size: int(1, 1_000_000),
          tags: [pick(vocab), pick(vocab)],
        })),
        next_cursor: hex(24),
      },
      null,
      chance(0.5) ? 2 : undefined,
    );
  const shellCmd = () =>
    pick([
      `ls -la ${pick(dirs)}`,
      `cat ${rel()} | head -n 50`,
      `grep -rn "${ident()}" ${pick(dirs)}`,
      `npm test -- --run ${rel()}`,
      "git status && git diff --stat",
      `git add -A && git commit -m "${prose(1).slice(0, 60).replace(/"/g, "")}"`,
      `sed -i 's/${pick(vocab)}/${pick(vocab)}/g' ${rel()}`,
      "echo 'export PATH=$PATH:/opt/bin' >> ~/.bashrc",
      `sudo apt-get install -y ${pick(["nginx", "jq", "postgresql-client", "ripgrep"])}`,
      `mkdir -p build/${pick(names)} && cp ${rel()} build/`,
      `curl -s https://api.example.com/v1/${pick(names)}/${uuid()}`,
      `python3 -m pytest tests/test_${pick(names)}.py -q`,
      "rm -rf node_modules/.cache && npm ci",
      `find . -name "*.log" -mtime +7 -delete`,
      `rg -n "${ident()}" ${pick(dirs)} --type ts`,
    ]);

  const out: BenchSpan[] = [];
  let total = 0;
  const push = (label: string, kind: SpanKind, body: string, extra: Partial<SpanInput> = {}) => {
    const bytes = enc.encode(body);
    out.push({ label, input: { body: bytes, kind, cwd: "/home/dev/app", ...extra } });
    total += bytes.length;
  };
  const toolCall = (toolName: string, input: Record<string, unknown>) =>
    push(`call:${toolName}`, "TOOL_CALL", JSON.stringify(input), { toolName, toolInput: input });

  while (total < targetBytes) {
    const x = r();
    if (x < 0.22) {
      push("message", "MESSAGE", prose(int(1, 14)), { role: "assistant" });
    } else if (x < 0.28) {
      push("reasoning", "MESSAGE", prose(int(2, 10)), { role: "reasoning" });
    } else if (x < 0.4) {
      toolCall("Bash", { command: shellCmd(), description: prose(1).slice(0, 50) });
    } else if (x < 0.46) {
      if (chance(0.5)) toolCall("Write", { file_path: abs(), content: code(int(20, 500)) });
      else toolCall("Edit", { file_path: abs(), old_string: code(int(1, 8)), new_string: code(int(1, 12)) });
    } else if (x < 0.53) {
      const y = r();
      if (y < 0.5) toolCall("Read", { file_path: abs() });
      else if (y < 0.8) toolCall("Grep", { pattern: ident(), path: pick(dirs), output_mode: "content" });
      else toolCall("Glob", { pattern: `**/*${pick(exts)}` });
    } else if (x < 0.57) {
      push(
        "call:codex-shell",
        "TOOL_CALL",
        JSON.stringify({ command: ["bash", "-lc", shellCmd()], workdir: "/home/dev/app", timeout_ms: 120000 }),
        {
          toolName: "shell",
        },
      );
    } else if (x < 0.59) {
      push(
        "call:openhands-run",
        "TOOL_CALL",
        JSON.stringify({ command: shellCmd(), is_input: false, thought: prose(2), blocking: false }),
        { toolName: "run" },
      );
    } else if (x < 0.72) {
      push("result:file", "TOOL_RESULT", code(int(30, 900)), { toolName: "Read" });
    } else if (x < 0.85) {
      const y = r();
      let body: string;
      if (y < 0.3)
        body = `total ${int(10, 900)}\n${Array.from({ length: int(3, 40) }, () => `-rw-r--r--  1 dev dev ${int(100, 90000)} Mar ${int(1, 28)} 12:${int(10, 59)} ${pick(names)}${pick(exts)}`).join("\n")}`;
      else if (y < 0.55)
        body = `${Array.from({ length: int(3, 40) }, () => ` \u2713 ${rel()} (${int(1, 40)} tests) ${int(2, 900)}ms`).join("\n")}\n\n Test Files  ${int(3, 40)} passed\n      Tests  ${int(20, 900)} passed\n   Duration  ${int(1, 60)}.${int(10, 99)}s`;
      else if (y < 0.75)
        body = Array.from(
          { length: int(2, 15) },
          () =>
            `commit ${hex(40)}\nAuthor: Dev <dev@example.com>\nDate:   Tue Mar ${int(1, 28)} 14:22:01 2026 +0100\n\n    ${prose(1).slice(0, 70)}\n`,
        ).join("\n");
      else
        body = `On branch main\nChanges not staged for commit:\n${Array.from({ length: int(1, 12) }, () => `\tmodified:   ${rel()}`).join("\n")}\n`;
      push("result:command", "TOOL_RESULT", body, { toolName: "Bash", exitCode: 0 });
    } else if (x < 0.92) {
      push("result:log", "TOOL_RESULT", logs(int(40, 1500)), { toolName: "Bash", exitCode: 0 });
    } else if (x < 0.96) {
      push("result:json", "TOOL_RESULT", jsonDoc(int(5, 150)), { toolName: "WebFetch" });
    } else if (x < 0.985) {
      push("summary", "SUMMARY", prose(int(3, 12)));
    } else {
      const y = r();
      if (y < 0.4) push("dump:log", "TOOL_RESULT", logs(int(5000, 30000)), { toolName: "Bash", exitCode: 0 });
      else if (y < 0.7) push("dump:code", "TOOL_RESULT", code(int(10000, 60000)), { toolName: "Read" });
      else push("dump:json", "TOOL_RESULT", jsonDoc(int(2000, 12000)), { toolName: "WebFetch" });
    }
    if (chance(0.01))
      push(
        "call:seed-write",
        "TOOL_CALL",
        `write_file(path="${pick(["/etc/app/conf.yaml", "/etc/hosts", "~/.bashrc"])}", mode="overwrite")`,
      );
  }
  return out;
}
