/**
 * The compiled test of many path prefixes (compilePathPrefixes, what an evidence question runs on
 * every candidate atom) says exactly what testing each prefix alone says (pathMatchesPrefix), on
 * paths and prefixes drawn from the pieces that decide a match: home directories, dot-directories,
 * trailing and doubled slashes, siblings that share a prefix as a string.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePathPrefixes, HOME_DOTFILES_TOKEN, pathMatchesPrefix } from "./path-prefix";
import { DEFAULT_SYSTEM_CONFIG_PREFIXES } from "./policy";

const segment = fc.constantFrom(
  "etc",
  "etcd",
  "app",
  "app2",
  ".ssh",
  ".bashrc",
  ".",
  "..",
  "home",
  "root",
  "Users",
  "u",
  "",
  "conf.yaml",
);
const path = fc.array(segment, { maxLength: 5 }).map((parts) => `/${parts.join("/")}`);
const prefix = fc.oneof(
  path,
  path.map((p) => `${p}/`),
  fc.array(segment, { maxLength: 3 }).map((parts) => `~/${parts.join("/")}`),
  fc.constant(HOME_DOTFILES_TOKEN),
  fc.constant("/"),
  fc.constantFrom(...DEFAULT_SYSTEM_CONFIG_PREFIXES),
);

describe("compilePathPrefixes", () => {
  it("matches a path exactly when some prefix alone does", () => {
    fc.assert(
      fc.property(
        fc.array(prefix, { maxLength: 6 }),
        fc.array(
          fc.oneof(
            path,
            path.map((p) => `/home/u${p}`),
            path.map((p) => `/root${p}`),
          ),
          { maxLength: 8 },
        ),
        (prefixes, paths) => {
          const test = compilePathPrefixes(prefixes);
          for (const p of paths)
            expect(test(p), `${p} against ${JSON.stringify(prefixes)}`).toBe(prefixes.some((pre) => pathMatchesPrefix(p, pre)));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("matches nothing with no prefixes", () => {
    expect(compilePathPrefixes([])("/etc/passwd")).toBe(false);
  });
});
