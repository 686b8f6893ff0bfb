/**
 * `npm run build:hook` (also run by postinstall and before `npm run build`): bundles the hooks'
 * entry (./hook-main.ts) with its imports into one ES module, so a runtime starts a hook as plain
 * JavaScript. Started through tsx, a hook spent about 2.4 s compiling TypeScript before doing any
 * work, a cost paid at every compaction; the bundle starts in about a tenth of a second.
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { hookBundlePath, projectRoot } from "./hook-paths";

/** Writes the bundle; returns its path. */
export async function buildHookBundle(outfile = hookBundlePath()): Promise<string> {
  const { build } = await import("esbuild");
  const root = projectRoot();
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [join(root, "lib/cli/hook-main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    tsconfig: join(root, "tsconfig.json"),
    // Bundled CommonJS dependencies call require(): an ES module has none of its own.
    banner: {
      js: "import { createRequire as __custodianRequire } from 'node:module'; const require = __custodianRequire(import.meta.url);",
    },
    logLevel: "warning",
    legalComments: "none",
  });
  return outfile;
}

const invoked = process.argv[1] !== undefined && /hook-build\.[cm]?[jt]s$/.test(process.argv[1]);
if (invoked) {
  buildHookBundle().then(
    (path) => console.log(`Hook bundle: ${path}`),
    (error: unknown) => {
      // Never fails an install: without the bundle the hooks run through tsx, only slower to start.
      console.warn(
        `custodian: could not bundle the hooks (${error instanceof Error ? error.message : String(error)}); they will run through tsx`,
      );
    },
  );
}
