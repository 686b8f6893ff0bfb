/**
 * `npm run build:hook` (also run by postinstall and before `npm run build`): bundles the hooks'
 * entry (./hook-main.ts) with its imports into plain ES modules, so a runtime starts a hook as plain
 * JavaScript; and, sharing its chunks, the import parser's worker thread, which the built server
 * starts for every large import (lib/server/imports/parse-off-thread.ts). Started through tsx, a hook spent about 2.4 s compiling TypeScript before doing any
 * work, a cost paid at every compaction. The entry is hook.mjs; what only some hooks load (each
 * runtime's importer, the installer) sits in chunks beside it, so a hook compiles only the code it runs.
 */
import { mkdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Plugin } from "esbuild";
import { BUNDLE_SOURCES } from "@/lib/core/project-root";
import { hookBundlePath, projectRoot } from "./hook-paths";

/** Where the chunks go, beside the entry: emptied at each build, so none of an older build stays. */
export const HOOK_CHUNKS = "hook-chunks";

/**
 * zod's sixty locales, left out: a hook never switches locale (zod registers English itself, from
 * its schemas module), and compiling them was a third of every Claude Code hook's start-up.
 */
const withoutZodLocales: Plugin = {
  name: "without-zod-locales",
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: "zod-locales", namespace: "custodian-empty" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "custodian-empty" }, () => ({ contents: "export {};", loader: "js" }));
  },
};

/** Writes the bundle; returns the hook entry's path. */
export async function buildHookBundle(outfile = hookBundlePath()): Promise<string> {
  const { build } = await import("esbuild");
  const root = projectRoot();
  const outdir = dirname(outfile);
  rmSync(join(outdir, HOOK_CHUNKS), { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: {
      [basename(outfile).replace(/\.mjs$/, "")]: join(root, BUNDLE_SOURCES.hook),
      "import-worker": join(root, BUNDLE_SOURCES["import-worker"]),
    },
    outdir,
    outExtension: { ".js": ".mjs" },
    chunkNames: `${HOOK_CHUNKS}/[name]-[hash]`,
    splitting: true,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    tsconfig: join(root, "tsconfig.json"),
    plugins: [withoutZodLocales],
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
