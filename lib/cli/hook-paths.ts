/**
 * Where this checkout is, and where `npm run build:hook` writes the hooks as one plain JavaScript
 * file. Kept apart from the builder so the hooks (which import this) never load the bundler.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder holding Custodian's package.json, found by walking up from this module: the same
 * answer from the TypeScript source (lib/cli) and from the bundle (under node_modules/.cache).
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

/**
 * Under node_modules: git-ignored, rebuilt by every `npm install` (postinstall), and gone only
 * together with tsx, so an installed hook never points at a file a data reset removed.
 */
export function hookBundlePath(root = projectRoot()): string {
  return join(root, "node_modules", ".cache", "custodian", "hook.mjs");
}
