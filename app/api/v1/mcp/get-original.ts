/**
 * MCP `get_original`: an original's verbatim bytes a page at a time. A page is at most
 * ORIGINAL_PAGE_BYTES (a model's context cannot hold a large original, and the server never loads
 * one whole to answer); the answer says where the next page starts.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { ORIGINAL_PAGE_BYTES, utf8CutEnd } from "@/lib/core/limits";
import { heldOriginal, readOriginalBytes } from "@/lib/server/provenance";
import { defineTool, toolResult as result } from "./tool-calls";

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export const getOriginalTool = (caller: { projectId: string }) =>
  defineTool({
    name: "get_original",
    title: "Fetch a span's original",
    description:
      `The verbatim bytes Custodian holds for a span, a page of at most ${ORIGINAL_PAGE_BYTES} bytes from byteStart ` +
      "(default 0) to byteEnd (end exclusive, default the page's end), with the sha256 of the whole original and of " +
      "the page. Text when the page is UTF-8, else base64. When more follows, nextByteStart says where to ask next.",
    annotations: { title: "Original bytes", ...READ_ONLY },
    input: z.object({
      spanId: z.uuid(),
      byteStart: z.number().int().min(0).optional(),
      byteEnd: z.number().int().min(0).optional(),
    }),
    call: async ({ spanId, byteStart, byteEnd }) => {
      const original = await heldOriginal(caller.projectId, spanId);
      const length = original.byteLength;
      const start = byteStart ?? 0;
      if (start > Math.min(byteEnd ?? length, length))
        throw new AppError("VALIDATION_FAILED", "byteStart is past byteEnd or the end of the original", {
          fields: [{ path: "byteStart", message: `the original has ${length} bytes` }],
        });
      const asked = Math.min(byteEnd ?? length, length);
      const paged = asked - start > ORIGINAL_PAGE_BYTES;
      let bytes = await readOriginalBytes(original, start, paged ? start + ORIGINAL_PAGE_BYTES : asked);
      // A page the server cut ends on a whole character, so that text stays text.
      if (paged && utf8CutEnd(bytes) > 0) bytes = bytes.subarray(0, utf8CutEnd(bytes));
      const end = start + bytes.byteLength;
      let text: string | undefined;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        text = undefined;
      }
      const structured = {
        spanId: original.spanId,
        sessionId: original.sessionId,
        sha256: original.sha256,
        byteLength: length,
        byteStart: start,
        byteEnd: end,
        ...(end < asked ? { nextByteStart: end } : {}),
        rangeSha256: createHash("sha256").update(bytes).digest("hex"),
        encoding: text === undefined ? "base64" : "utf-8",
        ...(text === undefined ? { base64: Buffer.from(bytes).toString("base64") } : { text }),
        pinned: original.pinned,
        expiresAt: original.expiresAt?.toISOString() ?? null,
      };
      const content = text ?? Buffer.from(bytes).toString("base64");
      const more =
        end < asked
          ? `\n\n[bytes ${start}-${end} of ${length}; ${asked - end} more asked for: call get_original again with byteStart=${end}]`
          : "";
      return result(structured, content + more);
    },
  });
