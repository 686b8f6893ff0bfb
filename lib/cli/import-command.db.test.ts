import path from "node:path";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importTranscript } from "@/lib/importers";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { importLocally } from "./import-command";

describe("custodian import (into the local database)", () => {
  it("imports a real rollout from its file, every record accounted for", async () => {
    const project = await makeTestProject("cli-import");
    const file = path.resolve("lib/importers/fixtures/codex/codemie-tui-0.125.jsonl");
    const outcome = await importLocally({ file, project: project.slug });
    const whole = importTranscript(readFileSync(file));
    expect(outcome.format).toBe("codex");
    expect(outcome.spans).toBe(whole.sessions[0]!.spans.length);
    expect(outcome.records).toEqual(whole.records);
  });

  it("names a missing file", async () => {
    const project = await makeTestProject("cli-import-missing");
    await expect(importLocally({ file: "/no/such/transcript.jsonl", project: project.slug })).rejects.toThrow(/no such file/i);
  });
});
