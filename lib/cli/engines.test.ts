/**
 * The Node.js version the README names for the first command is one that every installed package
 * accepts: `npm ci` on it prints no engine warning (each EBADENGINE line is a package that wants a
 * newer Node than the README promises).
 */
import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
};
const readme = readFileSync("README.md", "utf8");

describe("the Node.js version the README names", () => {
  const oldest = semver.minVersion(pkg.engines.node)!.version;

  it("is the package's own engines floor", () => {
    const named = readme.match(/Node\.js (\d+\.\d+)\+/)?.[1];
    expect(named, "the README names a Node.js version as 'Node.js X.Y+'").toBeDefined();
    expect(semver.minVersion(`>=${named}`)!.version).toBe(oldest);
  });

  it("is accepted by every package the lockfile installs", () => {
    const refusing = Object.entries(lock.packages)
      .filter(([name, entry]) => name && !Array.isArray(entry.engines) && entry.engines?.node)
      .filter(([, entry]) => !semver.satisfies(oldest, (entry.engines as { node: string }).node, { includePrerelease: true }))
      .map(([name, entry]) => `${name.replace(/^.*node_modules\//, "")} wants node ${(entry.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
