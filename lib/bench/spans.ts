/**
 * Realistic ~1 KiB spans for the ingest benchmark: the mix a coding agent streams (messages, shell
 * calls, file edits, tool output with paths, ids and numbers), deterministic per seq.
 */
const FILLER =
  "The test suite reported intermittent failures in the checkout flow; the agent inspected the fixtures, " +
  "compared the timing assumptions against the session expiry window, and narrowed the cause to a fixed delay. ";

const COMMANDS = [
  "rg -n \"TODO|FIXME\" src/ --glob '!*.snap'",
  "npm test -- --run tests/checkout.test.ts",
  'git commit -am "Fix flaky expiry test (SHOP-1182)"',
  "sed -i 's/timeout: 200/timeout: 900/' config/test.yaml",
  "cat /etc/app/conf.yaml",
  "echo 'export PATH=$HOME/bin:$PATH' >> ~/.bashrc",
];

function pad(text: string, size = 1024): string {
  let out = text;
  while (out.length < size) out += FILLER;
  return out.slice(0, size);
}

export interface BenchSpan {
  seq: number;
  kind: "MESSAGE" | "TOOL_CALL" | "TOOL_RESULT";
  role?: string;
  toolName?: string;
  toolInput?: Record<string, unknown>;
  occurredAt: string;
  body: string;
}

export function benchSpan(seq: number): BenchSpan {
  const occurredAt = new Date(Date.UTC(2026, 10, 1) + seq * 1000).toISOString();
  switch (seq % 4) {
    case 0:
      return { seq, kind: "MESSAGE", role: "assistant", occurredAt, body: pad(`Step ${seq}: I did not change /etc/hosts. `) };
    case 1: {
      const command = COMMANDS[seq % COMMANDS.length]!;
      const input = { command, description: pad(`Run the command for step ${seq}`, 900) };
      return {
        seq,
        kind: "TOOL_CALL",
        role: "assistant",
        toolName: "Bash",
        toolInput: input,
        occurredAt,
        body: JSON.stringify(input),
      };
    }
    case 2: {
      const input = {
        file_path: `/home/dev/app/src/module_${seq % 97}.ts`,
        old_string: "const timeout = 200;",
        new_string: pad("const timeout = 900;", 800),
      };
      return {
        seq,
        kind: "TOOL_CALL",
        role: "assistant",
        toolName: "Edit",
        toolInput: input,
        occurredAt,
        body: JSON.stringify(input),
      };
    }
    default:
      return {
        seq,
        kind: "TOOL_RESULT",
        role: "tool",
        occurredAt,
        body: pad(
          `src/checkout/session.ts:88: expires at 2026-11-22T09:14:03Z (run 7f3e2a91-0c4d-4b8e-9a51-2b91d04c5e77) took 4.21s, 50 passed\n`,
        ),
      };
  }
}
