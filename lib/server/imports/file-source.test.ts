import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importTranscript } from "@/lib/importers";
import { codexImporter } from "@/lib/importers/codex";
import { fileSource } from "./file-source";

const dir = mkdtempSync(path.join(tmpdir(), "file-source-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("fileSource", () => {
  const real = readFileSync(path.resolve("lib/importers/fixtures/codex/codemie-tui-0.125.jsonl"));
  const file = path.join(dir, "rollout.jsonl");
  writeFileSync(file, real);

  it("hands out the file in fresh chunks, from the start on every pass", () => {
    const source = fileSource(file, real.byteLength, 100_000);
    for (let pass = 0; pass < 2; pass++) {
      const chunks = [...source.chunks()];
      expect(chunks.map((c) => c.byteLength)).toEqual([...Array(7).fill(100_000), real.byteLength - 700_000]);
      // Plain Uint8Arrays (a Buffer's slice() would share memory), each its own memory.
      expect(chunks.every((c) => !Buffer.isBuffer(c))).toBe(true);
      expect(new Set(chunks.map((c) => c.buffer)).size).toBe(chunks.length);
      expect(Buffer.concat(chunks).equals(real)).toBe(true);
    }
  });

  // Open files are counted in /proc (Linux, where CI runs).
  it.runIf(existsSync("/proc/self/fd"))("closes the file when a reader stops early, as a failed import does", () => {
    const open = () => readdirSync("/proc/self/fd").length;
    const before = open();
    const windows = codexImporter.windows!(fileSource(file, real.byteLength, 4096), 1);
    windows.next();
    expect(open()).toBe(before + 1);
    windows.return(undefined as never);
    expect(open()).toBe(before);
  });

  it("gives the importer the same sessions as the file held in memory", () => {
    const windows = codexImporter.windows!(fileSource(file, real.byteLength, 4096), 1);
    let step = windows.next();
    let spans = 0;
    for (; !step.done; step = windows.next()) spans += step.value.sessions.reduce((n, s) => n + s.spans.length, 0);
    const whole = importTranscript(real, "codex");
    expect(spans).toBe(whole.sessions[0]!.spans.length);
    expect(step.value.records).toEqual(whole.records);
  });
});
