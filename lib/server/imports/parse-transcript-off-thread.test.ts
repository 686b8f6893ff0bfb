/**
 * A server-side capture's whole read of a large transcript goes to the worker thread and comes back
 * exactly as the importer's own parse gives it; a read of only bookkeeping records is no session yet.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { IMPORTERS } from "@/lib/importers";
import { IN_THREAD_PARSE_BYTES, parseTranscriptOffThread } from "./parse-off-thread";

describe("a whole read off the event loop", () => {
  it("gives a large real session exactly as the importer's parse does", async () => {
    const bytes = new Uint8Array(
      gunzipSync(readFileSync("lib/importers/fixtures/claude-code/spotter-compacted-ae4a77f8.jsonl.gz")),
    );
    expect(bytes.byteLength).toBeGreaterThan(IN_THREAD_PARSE_BYTES);
    const parsed = IMPORTERS["claude-code"].parse(bytes);
    expect(parsed.sessions[0]!.spans.length).toBeGreaterThan(100);
    expect((await parseTranscriptOffThread(bytes, "claude-code")).sessions).toEqual(parsed.sessions);
  }, 60_000);

  it("answers no session, not an error, for a large read of bookkeeping records only", async () => {
    const record = JSON.stringify({ type: "file-history-snapshot", messageId: "m", snapshot: { trackedFileBackups: {} } });
    const bytes = new TextEncoder().encode(`${Array.from({ length: 5_000 }, () => record).join("\n")}\n`);
    expect(bytes.byteLength).toBeGreaterThan(IN_THREAD_PARSE_BYTES);
    expect(IMPORTERS["claude-code"].parse(bytes).sessions).toEqual([]);
    expect(await parseTranscriptOffThread(bytes, "claude-code")).toEqual({ sessions: [] });
  }, 60_000);
});
