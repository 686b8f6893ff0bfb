/**
 * `npm test`: the whole suite, with its layers overlapped where they leave the CPU idle, and the
 * time of each layer printed at the end.
 *
 * Lint and the type check run side by side, and nothing else starts unless both pass. Then the
 * vitest projects (unit, db, embedded) run beside the production build and the browser tests that
 * need it. Measured on two cores: the browser tests keep about a third of a core busy (their time is
 * spent waiting on pages, the server and the database), and vitest a little under one of its own,
 * so one run's waits are the other's work. Every layer still runs in full; a failing layer fails
 * the suite once all have finished, so one run reports every failure.
 */
import { spawn } from "node:child_process";

type Layer = { name: string; command: string[] };
type Outcome = { name: string; code: number; seconds: number };

const LINT: Layer = { name: "lint", command: ["npm", "run", "-s", "lint"] };
const TYPECHECK: Layer = { name: "typecheck", command: ["npx", "tsc", "--noEmit"] };
const VITEST: Layer = { name: "vitest", command: ["npx", "vitest", "run"] };
const BUILD: Layer = { name: "build", command: ["npm", "run", "-s", "build"] };
const PLAYWRIGHT: Layer = { name: "playwright", command: ["npx", "playwright", "test"] };

/** Runs one layer, each line of its output prefixed with its name (two layers print at once). */
function run(layer: Layer): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(layer.command[0]!, layer.command.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ] as const) {
      let pending = "";
      from.on("data", (chunk: Buffer) => {
        const lines = (pending + chunk.toString()).split("\n");
        pending = lines.pop()!;
        for (const line of lines) to.write(`[${layer.name}] ${line}\n`);
      });
      from.on("end", () => pending && to.write(`[${layer.name}] ${pending}\n`));
    }
    child.on("close", (code, signal) =>
      resolve({ name: layer.name, code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000 }),
    );
  });
}

/** Runs the layers one after the other, stopping at the first that fails. */
async function inOrder(...layers: Layer[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const layer of layers) {
    const outcome = await run(layer);
    outcomes.push(outcome);
    if (outcome.code !== 0) break;
  }
  return outcomes;
}

function report(outcomes: Outcome[], started: number) {
  console.log("\nnpm test by layer, in seconds (lint beside typecheck, then vitest beside build and playwright):");
  for (const o of outcomes)
    console.log(`  ${o.name.padEnd(11)} ${o.seconds.toFixed(0).padStart(5)}  ${o.code === 0 ? "passed" : "FAILED"}`);
  console.log(`  ${"total".padEnd(11)} ${((performance.now() - started) / 1000).toFixed(0).padStart(5)}`);
}

async function main() {
  const started = performance.now();
  const checks = await Promise.all([run(LINT), run(TYPECHECK)]);
  if (checks.some((o) => o.code !== 0)) {
    report(checks, started);
    process.exit(1);
  }
  const [tests, browser] = await Promise.all([run(VITEST), inOrder(BUILD, PLAYWRIGHT)]);
  const outcomes = [...checks, tests, ...browser];
  report(outcomes, started);
  const ranAll = browser.length === 2;
  process.exit(ranAll && outcomes.every((o) => o.code === 0) ? 0 : 1);
}

void main();
