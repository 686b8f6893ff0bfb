/**
 * Where this checkout is, and where its prebuilt plain-JavaScript bundles live (written by
 * `npm run build:hook`): the hooks a runtime starts, and the import parser's worker thread.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder holding Custodian's package.json, found by walking up from this module: the same
 * answer from the TypeScript source, from a bundle under node_modules/.cache and from the server's
 * compiled chunks under .next.
 */
export function projectRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "custodian") return dir;
      } catch {
        // not a readable manifest: keep walking up
      }
    }
    if (dirname(dir) === dir) return from;
  }
}

/** Each bundle's TypeScript source, relative to the project root. */
export const BUNDLE_SOURCES = {
  hook: "lib/cli/hook-main.ts",
  "import-worker": "lib/server/imports/parse-worker.ts",
} as const;

export type BundleEntry = keyof typeof BUNDLE_SOURCES;

/**
 * A bundle's entry file. Under node_modules: git-ignored, rebuilt by every `npm install`
 * (postinstall) and `npm run build`, and gone only together with the dependencies it was built
 * from, so an installed hook never points at a file a data reset removed.
 */
export function bundlePath(entry: BundleEntry, root = projectRoot()): string {
  return join(root, "node_modules", ".cache", "custodian", `${entry}.mjs`);
}
