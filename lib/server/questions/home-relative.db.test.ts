/**
 * custodian_home_relative, which the "~/..." prefixes' index and ranges are built on (candidates.ts),
 * is the engine's homeRelative in SQL: the same part below a home directory, or null, for every
 * path, the edges included (a home itself, a missing user name, a trailing or doubled slash, a
 * look-alike such as /rootx or /usr/home, names with LIKE's own wildcards, non-ASCII names).
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { homeRelative } from "@/lib/evidence/path-prefix";

const PATHS = [
  "/root",
  "/root/",
  "/root/.ssh/authorized_keys",
  "/rootx/.bashrc",
  "/home",
  "/home/",
  "/home//x",
  "/home/alice",
  "/home/alice/",
  "/home/alice//x",
  "/home/alice/.bashrc",
  "/home/alice/project/src/a.ts",
  "/home/a_b/.profile",
  "/home/a%b/.profile",
  "/home/ålice/.config/ü.toml",
  "/Users",
  "/Users/",
  "/Users/bob",
  "/Users/bob/.zshrc",
  "/usr/home/alice/.bashrc",
  "home/alice/.bashrc",
  "/etc/hosts",
  "",
];

describe("custodian_home_relative", () => {
  it("is homeRelative for every path", async () => {
    const rows = await db().$queryRaw<Array<{ path: string; rel: string | null }>>`
      select p.path, custodian_home_relative(p.path) as rel from unnest(${PATHS}::text[]) as p(path)`;
    expect(rows.map((r) => [r.path, r.rel])).toEqual(PATHS.map((p) => [p, homeRelative(p)]));
  });
});
