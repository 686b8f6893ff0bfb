/**
 * `npm test`: the whole suite, layer by layer, with the time of each layer printed at the end.
 *
 * Lint and the type check run side by side, and nothing else starts unless both pass; then the
 * vitest projects (unit, db, embedded), the production build, the browser tests that need it, and
 * the Citus layer (run against CITUS_URL when it is set, else skipped with its reason printed),
 * one after the other. Running vitest beside the build and the browser tests was tried: on two
 * shared cores it took as long in all (956 s against 959 s) and tests with time limits failed, so
 * each layer has the machine to itself. A failing layer stops the suite, as `&&` did.
 */
import { spawn } from "node:child_process";

type Layer = { name: string; command: string[] };
type Outcome = { name: string; code: number; seconds: number };

const LINT: Layer = { name: "lint", command: ["npm", "run", "-s", "lint"] };
const TYPECHECK: Layer = { name: "typecheck", command: ["npx", "tsc", "--noEmit"] };
const VITEST: Layer = { name: "vitest", command: ["npx", "vitest", "run"] };
const BUILD: Layer = { name: "build", command: ["npm", "run", "-s", "build"] };
const PLAYWRIGHT: Layer = { name: "playwright", command: ["npx", "playwright", "test"] };
const CITUS: Layer = { name: "citus", command: ["npm", "run", "-s", "test:citus"] };

/** Runs one layer, each line of its output prefixed with its name (lint and typecheck print at once). */
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
  console.log("\nnpm test by layer, in seconds (lint beside typecheck, then the others in turn):");
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
  const layers = [VITEST, BUILD, PLAYWRIGHT, CITUS];
  const outcomes = [...checks, ...(await inOrder(...layers))];
  report(outcomes, started);
  process.exit(outcomes.length === checks.length + layers.length && outcomes.every((o) => o.code === 0) ? 0 : 1);
}

void main();
