import { describe, expect, it } from "vitest";
import { describeUploadAnswer } from "./ImportUpload";

describe("what the import form says", () => {
  it("says a full queue plainly, with when to try again, and that nothing was kept", () => {
    const answer = describeUploadAnswer(
      429,
      {
        error: {
          code: "IMPORT_QUEUE_FULL",
          message: "The import queue is full (this project's 4 waiting imports): try again later",
        },
      },
      "60",
    );
    expect(answer.kind).toBe("full");
    expect(answer.text).toBe(
      "Not imported: The import queue is full (this project's 4 waiting imports): try again later. Nothing was kept; send the file again in 1 minute(s).",
    );
  });

  it("says what was imported, what was queued, and any other refusal", () => {
    expect(describeUploadAnswer(200, { outcome: { spans: 12, sessions: [{}], format: "codex" } }, null).text).toBe(
      "Imported 12 spans in 1 session(s) (codex).",
    );
    expect(describeUploadAnswer(202, { job: { queuePosition: 2 } }, null).text).toMatch(/background, number 2 in the queue/);
    expect(describeUploadAnswer(415, { error: { code: "UNSUPPORTED_FORMAT", message: "Unknown format" } }, null)).toEqual({
      kind: "error",
      text: "Not imported: Unknown format.",
    });
    expect(describeUploadAnswer(500, null, null).text).toBe("Not imported: the server answered 500.");
  });
});
