/**
 * A deterministic corpus of realistic spans for the engine benchmark: assistant prose, tool
 * calls in the shapes of Claude Code, Codex CLI and OpenHands (shell commands, file writes and
 * edits with file content, patches), tool results (source files, listings, test runs, git and
 * package-manager output), application logs, and a few multi-megabyte results.
 */
import type { SpanInput, SpanKind } from "../types";

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
  const hex = (n: number) => Array.from({ length: n }, () => "0123456789abcdef"[int(0, 15)]).join("");
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const iso = () => `2026-${String(int(1, 12)).padStart(2, "0")}-${String(int(1, 28)).padStart(2, "0")}T${String(int(0, 23)).padStart(2, "0")}:${String(int(0, 59)).padStart(2, "0")}:${String(int(0, 59)).padStart(2, "0")}.${String(int(0, 999)).padStart(3, "0")}Z`;

  const dirs = ["src", "lib", "app", "components", "tests", "scripts", "config", "lib/server", "lib/evidence", "packages/core/src"];
  const names = ["index", "server", "config", "utils", "handler", "routes", "schema", "client", "worker", "store", "parser", "auth"];
  const exts = [".ts", ".tsx", ".py", ".go", ".rs", ".json", ".yaml", ".md"];
  const path = () => `${pick(dirs)}/${pick(names)}${pick(exts)}`;
  const absPath = () => `/home/dev/app/${path()}`;
  const sysPath = () => pick(["/etc/nginx/nginx.conf", "/etc/hosts", "/etc/app/conf.yaml", "/usr/local/bin/tool", "/var/lib/app/state.db", "~/.bashrc", "/etc/systemd/system/app.service"]);
  const words =
    "the a to of and in that is for it with as on this be are was by at or from which but not have has can will we function value file test error config module request response server client data type return import export const let async await update change check run build".split(
      " ",
    );
  const sentence = () => {
    const n = int(8, 24);
    const ws: string[] = [];
    for (let i = 0; i < n; i++) {
      const x = r();
      if (x < 0.04) ws.push(path());
      else if (x < 0.05) ws.push(`${int(1, 500)} ${pick(["ms", "MB", "files", "tests", "lines"])}`);
      else if (x < 0.055) ws.push(`\`${pick(names)}()\``);
      else ws.push(pick(words));
    }
    return ws.join(" ").replace(/^./, (c) => c.toUpperCase()) + pick([".", ".", ".", "?", ":"]);
  };
  const prose = (n: number) => Array.from({ length: n }, sentence).join(" ");
  const codeLine = () =>
    pick([
      `  const ${pick(names)} = await ${pick(names)}.${pick(words)}(${pick(["req", "id", "opts", "ctx"])});`,
      `  if (!${pick(names)}) throw new Error("${pick(words)} ${pick(words)} not found");`,
      `import { ${pick(names)} } from "./${pick(names)}";`,
      `  return { ${pick(words)}: ${int(0, 999)}, ${pick(words)}: "${pick(words)}" };`,
      `// ${prose(1)}`,
      `export function ${pick(names)}${pick(["Handler", "Service", "Factory"])}(${pick(words)}: string): void {`,
      "}",
      `    logger.info(\`${pick(words)} \${${pick(names)}.id}\`);`,
      "",
    ]);
  const code = (lines: number) => Array.from({ length: lines }, codeLine).join("\n");
  const logLine = () =>
    `${iso()} ${pick(["INFO", "INFO", "DEBUG", "WARN", "ERROR"])} ${pick(names)}: ${pick(["request completed", "job finished", "cache miss", "retrying", "connected"])} id=${uuid()} path=/api/v1/${pick(names)}/${int(1, 99999)} status=${pick([200, 200, 201, 404, 500])} duration=${int(1, 900)}ms size=${int(1, 900)} KB`;
  const shellCmd = () =>
    pick([
      `ls -la ${pick(dirs)}`,
      `cat ${path()} | head -n 50`,
      `grep -rn "${pick(names)}" ${pick(dirs)}`,
      `npm test -- --run ${path()}`,
      `git status && git diff --stat`,
      `git add -A && git commit -m "${prose(1).slice(0, 60)}"`,
      `sed -i 's/${pick(words)}/${pick(words)}/g' ${path()}`,
      `echo 'export PATH=$PATH:/opt/bin' >> ~/.bashrc`,
      `sudo apt-get install -y ${pick(["nginx", "jq", "postgresql-client", "ripgrep"])}`,
      `mkdir -p build/${pick(names)} && cp ${path()} build/`,
      `curl -s https://api.example.com/v1/${pick(names)}/${uuid()}`,
      `python3 -m pytest tests/test_${pick(names)}.py -q`,
      `rm -rf node_modules/.cache && npm ci`,
      `find . -name "*.log" -mtime +7 -delete`,
    ]);

  const out: BenchSpan[] = [];
  let total = 0;
  const push = (label: string, kind: SpanKind, body: string, extra: Partial<SpanInput> = {}) => {
    const bytes = enc.encode(body);
    out.push({ label, input: { body: bytes, kind, cwd: "/home/dev/app", ...extra } });
    total += bytes.length;
  };

  while (total < targetBytes) {
    const x = r();
    if (x < 0.2) {
      push("message", "MESSAGE", prose(int(3, 30)), { role: "assistant" });
    } else if (x < 0.3) {
      const cmd = shellCmd();
      push("claude-bash", "TOOL_CALL", JSON.stringify({ type: "tool_use", id: `toolu_${hex(24)}`, name: "Bash", input: { command: cmd, description: prose(1).slice(0, 50) } }), { toolName: "Bash" });
    } else if (x < 0.38) {
      push("claude-write", "TOOL_CALL", JSON.stringify({ type: "tool_use", id: `toolu_${hex(24)}`, name: pick(["Write", "Edit"]), input: { file_path: absPath(), content: code(int(20, 300)) } }));
    } else if (x < 0.45) {
      const argv = ["bash", "-lc", shellCmd()];
      push("codex-shell", "TOOL_CALL", JSON.stringify({ type: "function_call", name: "shell", arguments: JSON.stringify({ command: argv, workdir: "/home/dev/app", timeout_ms: 120000 }), call_id: `call_${hex(20)}` }));
    } else if (x < 0.6) {
      push("result-file", "TOOL_RESULT", code(int(40, 600)));
    } else if (x < 0.68) {
      const lines = Array.from({ length: int(5, 60) }, () => `-rw-r--r--  1 dev dev ${int(100, 90000)} Mar ${int(1, 28)} 12:${String(int(10, 59))} ${pick(names)}${pick(exts)}`);
      push("result-ls", "TOOL_RESULT", `total ${int(10, 900)}\n${lines.join("\n")}`);
    } else if (x < 0.74) {
      const tests = Array.from({ length: int(5, 80) }, () => ` ✓ ${path()} (${int(1, 40)} tests) ${int(2, 900)}ms`);
      push("result-tests", "TOOL_RESULT", `${tests.join("\n")}\n\n Test Files  ${int(5, 80)} passed\n      Tests  ${int(50, 900)} passed\n   Duration  ${int(1, 60)}.${int(10, 99)}s`);
    } else if (x < 0.8) {
      const commits = Array.from({ length: int(3, 30) }, () => `commit ${hex(40)}\nAuthor: Dev <dev@example.com>\nDate:   Tue Mar ${int(1, 28)} 14:22:01 2026 +0100\n\n    ${prose(1).slice(0, 70)}\n`);
      push("result-git", "TOOL_RESULT", commits.join("\n"));
    } else if (x < 0.9) {
      push("log", "TOOL_RESULT", Array.from({ length: int(50, 1500) }, logLine).join("\n"));
    } else if (x < 0.95) {
      push(
        "openhands-run",
        "TOOL_CALL",
        JSON.stringify({ id: int(1, 9999), timestamp: iso(), source: "agent", message: `Running command: ${shellCmd()}`, action: "run", args: { command: shellCmd(), thought: prose(2), blocking: false } }),
      );
    } else if (x < 0.985) {
      push(
        "codex-output",
        "TOOL_RESULT",
        JSON.stringify({ type: "function_call_output", call_id: `call_${hex(20)}`, output: JSON.stringify({ output: code(int(20, 200)), metadata: { exit_code: 0, duration_seconds: r() * 3 } }) }),
      );
    } else {
      push("big-result", "TOOL_RESULT", Array.from({ length: int(8000, 40000) }, () => (r() < 0.5 ? logLine() : codeLine())).join("\n"));
    }
    if (r() < 0.02) push("system-write", "TOOL_CALL", `write_file(path="${sysPath()}", mode="overwrite")`);
  }
  return out;
}
