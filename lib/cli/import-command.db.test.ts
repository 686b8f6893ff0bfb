import path from "node:path";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importTranscript } from "@/lib/importers";
import { POST as importRoute } from "@/app/api/v1/imports/route";
import { listenWith } from "@/lib/fuzz/listen";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { importLocally, importViaServer } from "./import-command";

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

describe("custodian import --server", () => {
  it("streams the file to the server's import route and prints what it imported", async () => {
    const project = await makeTestProject("cli-import-server");
    const key = (await createApiKey(project.id, "cli", "OPERATOR", TEST_ACTOR)).key;
    const server = await listenWith(importRoute);
    try {
      const file = path.resolve("lib/importers/fixtures/codex/real-exec-0.135.jsonl");
      const outcome = await importViaServer({ file, server: server.url, key });
      expect(outcome.format).toBe("codex");
      expect(outcome.records).toEqual(importTranscript(readFileSync(file)).records);
    } finally {
      await server.close();
    }
  });
});
