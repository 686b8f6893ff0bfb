/**
 * Every button in the dashboard wears one of the project's button styles (`.button`, optionally
 * `.secondary`, or `.link-button` for one that reads as a link): a bare `<button>` falls back to the
 * browser's own look, which differs from every other button on the page and ignores the dark scheme.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".tsx") && !e.parentPath.includes("node_modules"))
    .map((e) => path.join(e.parentPath, e.name));
}

/** The class names of a button element's opening tag, or null when it has no literal className. */
function classNames(tag: string): string[] | null {
  const literal = /className=(?:"([^"]*)"|\{\s*["'`]([^"'`]*)["'`]\s*\})/.exec(tag);
  if (!literal) return null;
  return (literal[1] ?? literal[2] ?? "").split(/\s+/).filter(Boolean);
}

/** `file:line` of each `<button ...>` whose opening tag carries none of the project's button classes. */
function unstyledButtons(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/<button\b[^>]*>/g)) {
    const names = classNames(match[0]);
    if (names?.includes("button") || names?.includes("link-button")) continue;
    const line = text.slice(0, match.index).split("\n").length;
    found.push(`${file}:${line}`);
  }
  return found;
}

describe("button styles", () => {
  it("finds a bare button and accepts the project's classes", () => {
    expect(unstyledButtons("x.tsx", '<form>\n  <button type="submit">Search</button>\n</form>')).toEqual(["x.tsx:2"]);
    expect(unstyledButtons("x.tsx", '<button className="plain">Go</button>')).toEqual(["x.tsx:1"]);
    expect(unstyledButtons("x.tsx", '<button type="submit" className="button">Go</button>')).toEqual([]);
    expect(unstyledButtons("x.tsx", '<button className="button secondary" disabled={a > b}>Go</button>')).toEqual([]);
    expect(unstyledButtons("x.tsx", '<button className={"link-button"}>Go</button>')).toEqual([]);
  });

  it("holds for every button in app/ and components/", () => {
    const bare = ["app", "components"].flatMap(sources).flatMap((file) => unstyledButtons(file, readFileSync(file, "utf8")));
    expect(bare).toEqual([]);
  });
});
