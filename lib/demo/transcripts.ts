/**
 * The demo's sessions, as a runtime would stream them: messages, tool calls with their JSON
 * arguments, tool results, and the compactions each runtime asked for. Nothing here states a class
 * or a count: ingest, classification and the gate decide, exactly as for real traffic.
 */
import type { SpanKind } from "@/lib/evidence/types";

export interface DemoSpan {
  kind: SpanKind;
  role?: string;
  toolName?: string;
  toolInput?: Record<string, unknown>;
  exitCode?: number;
  /** Minutes after the session started. */
  at: number;
  body: string | Uint8Array;
}

/** A compaction the runtime asked for, over a seq range. */
export interface DemoCompaction {
  fromSeq: number;
  toSeq: number;
  text: string;
  /** Carry provenance pointers to the replaced spans. */
  pointers: boolean;
  /** Name what the text drops (a lossy-but-honest summary). */
  honest?: boolean;
  /** The runtime compacted without asking the gate and reports it afterwards. */
  observed?: boolean;
  /** Minutes after the session started. */
  at: number;
}

/** Operator acts the demo performs after ingest, so the grid shows pins and shortened TTLs. */
export type DemoAct = { act: "pin"; seq: number; reason: string } | { act: "shorten"; seq: number; days: number; reason: string };

export interface DemoSession {
  externalId: string;
  runtime: string;
  title: string;
  cwd: string;
  /** How long ago the session started. */
  daysAgo: number;
  spans: DemoSpan[];
  compactions: DemoCompaction[];
  acts: DemoAct[];
}

const json = (value: unknown) => JSON.stringify(value);

const tool = (at: number, toolName: string, toolInput: Record<string, unknown>): DemoSpan => ({
  kind: "TOOL_CALL",
  role: "assistant",
  toolName,
  toolInput,
  at,
  body: json(toolInput),
});

const result = (at: number, body: string | Uint8Array, exitCode?: number): DemoSpan => ({
  kind: "TOOL_RESULT",
  role: "tool",
  at,
  body,
  ...(exitCode !== undefined ? { exitCode } : {}),
});

const user = (at: number, body: string): DemoSpan => ({ kind: "MESSAGE", role: "user", at, body });
const assistant = (at: number, body: string): DemoSpan => ({ kind: "MESSAGE", role: "assistant", at, body });

/** The seed's scenario, while the original is still held: a lossy summary is refused, an honest one accepted. */
const stagingConfig: DemoSession = {
  externalId: "cc-7f3e2a91-staging-config",
  runtime: "claude-code",
  title: "Configure the app for staging",
  cwd: "/home/dev/app",
  daysAgo: 3,
  spans: [
    user(0, "Set up the staging config for the app. It should listen on 8443 and log to /var/log/app."),
    assistant(1, "Let me look at the current configuration before changing anything."),
    tool(2, "Read", { file_path: "/home/dev/app/config/default.yaml" }),
    result(2, "listen: 8080\nlog_dir: ./logs\nworkers: 4\n"),
    tool(4, "write_file", {
      path: "/etc/app/conf.yaml",
      mode: "overwrite",
      content: "listen: 8443\nlog_dir: /var/log/app\nworkers: 4\n",
    }),
    result(4, "Wrote 47 bytes to /etc/app/conf.yaml"),
    tool(5, "Bash", { command: "sudo systemctl restart app.service", description: "Restart the app with the new config" }),
    result(6, "", 0),
    assistant(7, "The staging config is in place and app.service restarted cleanly. I did not change /etc/hosts."),
    user(9, "Thanks. Can you also check the service comes up after a reboot?"),
    tool(10, "Bash", { command: "systemctl is-enabled app.service" }),
    result(10, "enabled\n", 0),
    assistant(11, "It is enabled, so it starts on boot."),
    user(12, "Is it answering on the new port?"),
    tool(13, "Bash", { command: "curl -fsS https://localhost:8443/health", description: "Ask the app's health endpoint" }),
    result(13, '{"status":"ok","listen":"0.0.0.0:8443","version":"2.4.1"}\n', 0),
    assistant(14, "Yes: localhost:8443/health answers ok."),
  ],
  compactions: [
    // The compactor's first try: fluent, pointerless, silent about what it dropped.
    { fromSeq: 0, toSeq: 8, text: "The agent configured the application's YAML configuration.", pointers: false, at: 60 },
    // Its retry over what was refused: pointers and a manifest of the omissions.
    {
      fromSeq: 2,
      toSeq: 7,
      text: "The agent read the default config and wrote the staging configuration, then restarted the service.",
      pointers: true,
      honest: true,
      at: 61,
    },
  ],
  acts: [],
};

/** A coding session kept verbatim; one result is under legal hold for an incident review. */
const flakyTest: DemoSession = {
  externalId: "codex-rollout-2026-11-22T09-14-03-0193a1",
  runtime: "codex",
  title: "Fix the flaky checkout test",
  cwd: "/home/dev/shop",
  daysAgo: 10,
  spans: [
    user(0, "tests/checkout.test.ts fails about one run in five on CI. Find out why and fix it."),
    tool(1, "shell", {
      command: ["bash", "-lc", 'rg -n "setTimeout|Date.now" tests/checkout.test.ts src/checkout'],
      workdir: "/home/dev/shop",
    }),
    result(
      1,
      "tests/checkout.test.ts:41:    await new Promise((r) => setTimeout(r, 200));\nsrc/checkout/session.ts:88:  const expires = Date.now() + 15 * 60 * 1000;\n",
      0,
    ),
    assistant(2, "The test waits a fixed 200ms for the session to expire instead of controlling the clock."),
    tool(3, "apply_patch", {
      input:
        "*** Begin Patch\n*** Update File: tests/checkout.test.ts\n@@\n-    await new Promise((r) => setTimeout(r, 200));\n+    vi.advanceTimersByTime(15 * 60 * 1000 + 1);\n*** End Patch\n",
    }),
    result(3, "Success. Updated the following files:\nM tests/checkout.test.ts\n", 0),
    tool(5, "shell", { command: ["bash", "-lc", "npm test -- tests/checkout.test.ts --repeat 50"], workdir: "/home/dev/shop" }),
    result(7, " ✓ tests/checkout.test.ts (50 runs) 4.21s\n Test Files  1 passed (1)\n      Tests  50 passed (50)\n", 0),
    tool(8, "shell", {
      command: ["bash", "-lc", 'git commit -am "Use fake timers in checkout expiry test (SHOP-1182)"'],
      workdir: "/home/dev/shop",
    }),
    result(
      8,
      "[fix/checkout-flake 4e1b9c2] Use fake timers in checkout expiry test (SHOP-1182)\n 1 file changed, 1 insertion(+), 1 deletion(-)\n",
      0,
    ),
    assistant(9, "Fixed: the test now advances fake timers past the 15-minute expiry. 50 repeated runs pass. Committed 4e1b9c2."),
  ],
  compactions: [],
  acts: [{ act: "pin", seq: 2, reason: "Incident INC-2291: evidence of the timing assumption in checkout" }],
};

/** A machine set-up from two months ago: narrative originals have expired, one instruction is on hold. */
const devBox: DemoSession = {
  externalId: "oh-conv-5d2c81e0b7",
  runtime: "openhands",
  title: "Provision a development box",
  cwd: "/home/dev",
  daysAgo: 60,
  spans: [
    user(0, "Install Postgres, add the project's bin folder to my PATH, and set an API token for the staging registry."),
    assistant(1, "I'll install Postgres with apt, then update ~/.bashrc."),
    tool(2, "execute_bash", { command: "sudo apt-get install -y postgresql-15", is_input: false }),
    result(
      5,
      "Setting up postgresql-15 (15.8-0+deb12u1) ...\n0 upgraded, 3 newly installed, 0 to remove and 12 not upgraded.\n",
      0,
    ),
    tool(6, "execute_bash", { command: "echo 'export PATH=\"$HOME/shop/bin:$PATH\"' >> ~/.bashrc" }),
    result(6, "", 0),
    tool(7, "execute_bash", { command: "echo 'export REGISTRY_TOKEN=stg_7Hq2' >> ~/.bashrc" }),
    result(7, "", 0),
    assistant(8, "Done. Postgres 15 is installed and ~/.bashrc now extends PATH and sets REGISTRY_TOKEN."),
    user(9, "Great, that's everything for today."),
  ],
  compactions: [],
  acts: [
    { act: "pin", seq: 0, reason: "Customer instruction on record for contract review" },
    { act: "shorten", seq: 6, days: 45, reason: "Body contains a registry token; keep no longer than needed" },
  ],
};

/** A clean-up from eight months ago: structured originals outlived their 180-day TTL and were swept. */
const quarterlyCleanup: DemoSession = {
  externalId: "cc-2b91d04c-quarterly-cleanup",
  runtime: "claude-code",
  title: "Quarterly log clean-up review",
  cwd: "/srv/shop",
  daysAgo: 250,
  spans: [
    user(0, "How much space do the old logs take? Don't delete anything yet."),
    tool(1, "Bash", { command: "du -sh /srv/shop/logs/2025-*" }),
    result(1, "1.2G\t/srv/shop/logs/2025-q1\n860M\t/srv/shop/logs/2025-q2\n", 0),
    tool(2, "Grep", { pattern: "ERROR", path: "/srv/shop/logs/2025-q2/app.log", output_mode: "count" }),
    result(2, "412\n"),
    assistant(3, "2025-q1 takes 1.2 GB and 2025-q2 860 MB; q2 has 412 ERROR lines. I did not delete anything."),
  ],
  compactions: [],
  acts: [],
};

/** The seed's scenario after the fact: the summary had a pointer, but the original is gone now. */
const legacyMigration: DemoSession = {
  externalId: "cc-0a77e5f3-config-migration",
  runtime: "claude-code",
  title: "Migrate app config to /etc",
  cwd: "/home/dev/app",
  daysAgo: 800,
  spans: [
    user(0, "Move the app's config out of the repo into the system config directory."),
    tool(1, "write_file", { path: "/etc/app/conf.yaml", mode: "overwrite", content: "listen: 8080\nlog_dir: /var/log/app\n" }),
    result(1, "Wrote 36 bytes to /etc/app/conf.yaml"),
    assistant(2, "The config now lives in /etc/app/conf.yaml."),
  ],
  compactions: [
    { fromSeq: 0, toSeq: 3, text: "The agent configured the application's YAML configuration.", pointers: true, at: 120 },
  ],
  acts: [],
};

/** A runtime that compacts on its own and reports afterwards: its pointerless summary lost the link. */
const unguardedRunner: DemoSession = {
  externalId: "runner-job-88412",
  runtime: "acme-runner",
  title: "Nightly dependency bump (compacted without the gate)",
  cwd: "/work/billing",
  daysAgo: 5,
  spans: [
    user(0, "Bump the minor versions of our dependencies and open a PR if tests pass."),
    tool(1, "run_shell", { command: "npm outdated --json" }),
    result(2, json({ stripe: { current: "14.2.0", wanted: "14.9.1" }, zod: { current: "3.22.4", wanted: "3.23.8" } }), 0),
    tool(3, "run_shell", { command: "npm install stripe@14.9.1 zod@3.23.8" }),
    result(5, "added 0 packages, changed 2 packages in 6s\n", 0),
    tool(6, "http_request", {
      method: "POST",
      url: "https://git.example.com/api/v1/repos/billing/pulls",
      body: { title: "Bump stripe and zod" },
    }),
    result(6, json({ number: 311, state: "open" }), 0),
    assistant(7, "Opened PR #311 with the bumps; the test suite passed."),
  ],
  compactions: [
    {
      fromSeq: 0,
      toSeq: 7,
      text: "Updated some dependencies and opened a pull request.",
      pointers: false,
      observed: true,
      at: 30,
    },
  ],
  acts: [],
};

/** Plain conversation: nothing evidential, reclaimable anywhere. */
const research: DemoSession = {
  externalId: "cc-91c3f0aa-retention-research",
  runtime: "claude-code",
  title: "Research: retention practices",
  cwd: "/home/dev",
  daysAgo: 2,
  spans: [
    user(0, "What do teams usually consider when deciding how long to keep agent transcripts?"),
    assistant(
      1,
      "Mostly three things: how long audits may look back, how expensive storage is, and what privacy rules require them to forget.",
    ),
    user(2, "Makes sense, thanks."),
  ],
  compactions: [],
  acts: [],
};

export const DEMO_PROJECT = { slug: "demo", name: "Demo: Acme agents" };

export const DEMO_SESSIONS: DemoSession[] = [
  stagingConfig,
  flakyTest,
  devBox,
  quarterlyCleanup,
  legacyMigration,
  unguardedRunner,
  research,
];
