#!/usr/bin/env node
/**
 * `npm run custodian -- ...`: a runtime hook (`hook <runtime> <event>`) starts from the plain
 * JavaScript bundle when `npm run build:hook` has built it, without compiling any TypeScript;
 * everything else, and the hooks without a bundle, runs the TypeScript CLI (./main.ts) through tsx.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const bundle = join(root, "node_modules", ".cache", "custodian", "hook.mjs");
const [group, first] = process.argv.slice(2);

if (group === "hook" && first !== "install" && existsSync(bundle)) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: join(root, "tsconfig.json") });
  await import(pathToFileURL(join(root, "lib", "cli", "main.ts")).href);
}
