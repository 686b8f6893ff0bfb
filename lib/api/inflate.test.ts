import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { gunzipWithin } from "./inflate";

/** A gzip body of `members` concatenated members, each 16 MiB of zeros (about 16 KB compressed). */
function bomb(members: number): Buffer {
  const member = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });
  return Buffer.concat(Array.from({ length: members }, () => member));
}

describe("gunzipWithin", () => {
  it("stops a 1 GiB gzip bomb at the limit, holding no more than the limit and one chunk", async () => {
    const body = bomb(64); // ~1 MB sent, 1 GiB inflated
    const limit = 1024 * 1024;
    const error = await gunzipWithin(body, limit).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    const refusal = error as AppError;
    expect(refusal.code).toBe("PAYLOAD_TOO_LARGE");
    expect(refusal.message).toContain(String(limit));
    const details = refusal.options.details as { maxBodyBytes: number; inflatedBytes: number };
    expect(details.maxBodyBytes).toBe(limit);
    expect(details.inflatedBytes).toBeGreaterThan(limit);
    expect(details.inflatedBytes).toBeLessThanOrEqual(limit + 64 * 1024);
  });

  it("inflates a body within the limit exactly, across members", async () => {
    const text = '{"resourceSpans":[]}';
    const body = Buffer.concat([gzipSync(text.slice(0, 5)), gzipSync(text.slice(5))]);
    expect(Buffer.from(await gunzipWithin(body, text.length)).toString()).toBe(text);
    await expect(gunzipWithin(gzipSync(text), text.length - 1)).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
  });

  it("refuses a body that is not gzip as a bad request", async () => {
    await expect(gunzipWithin(Buffer.from("not gzip at all"), 1024)).rejects.toMatchObject({ code: "INVALID_REQUEST" });
  });
});
