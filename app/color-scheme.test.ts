/**
 * What lets the browser tests check the dark scheme with axe's colour rules only
 * (e2e/support/pages.ts, everyWidthAndScheme): the dark scheme changes the values of colour custom
 * properties and nothing else. One `prefers-color-scheme` block in all the stylesheets, holding only
 * `:root { --name: <colour>; }` for names the light scheme defines with a colour too, and no script or
 * component that reads the scheme.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && ext.test(e.name) && !e.parentPath.includes("node_modules"))
    .map((e) => path.join(e.parentPath, e.name));
}

const COLOUR = /^#[0-9a-f]{3,8}$/i;
const SCHEME = /prefers-color-scheme/;

/** The declarations of a `:root { ... }` block's custom properties. */
function customProperties(block: string): Map<string, string> {
  return new Map([...block.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
}

describe("the dark colour scheme", () => {
  const sheets = ["app", "components"].flatMap((dir) => files(dir, /\.css$/));
  const globals = readFileSync(path.join("app", "globals.css"), "utf8");

  it("is one block of app/globals.css, and no other stylesheet, script or component reads the scheme", () => {
    const readers = [
      ...sheets.filter((f) => f !== path.join("app", "globals.css")),
      ...["app", "components", "lib"].flatMap((dir) => files(dir, /\.tsx?$/)),
    ].filter((f) => !f.endsWith(".test.ts") && SCHEME.test(readFileSync(f, "utf8")));
    expect(readers).toEqual([]);
    expect(globals.match(/prefers-color-scheme/g)).toHaveLength(1);
  });

  it("sets only colour custom properties that the light scheme sets to colours", () => {
    const block = /@media \(prefers-color-scheme: dark\) \{\s*:root \{([^}]*)\}\s*\}/.exec(globals);
    expect(block, "the dark block is `:root { ... }` alone").not.toBeNull();
    // Nothing but custom properties inside it: every statement is `--name: value`.
    const statements = block![1]!
      .split(";")
      .map((s) => s.trim())
      .filter(Boolean);
    expect(statements.filter((s) => !/^--[\w-]+\s*:/.test(s))).toEqual([]);
    const dark = customProperties(block![1]!);
    const light = customProperties(/^:root \{([^}]*)\}/m.exec(globals)![1]!);
    expect(dark.size).toBeGreaterThan(10);
    for (const [name, value] of dark) {
      expect(value, name).toMatch(COLOUR);
      expect(light.get(name), name).toMatch(COLOUR);
    }
  });
});
