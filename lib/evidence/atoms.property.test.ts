import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeSpan } from "./analyze";
import { extractAtoms } from "./atoms";
import { isValidUtf8 } from "./atoms/bytes";
import { SPAN_KINDS, type Atom, type SpanInput } from "./types";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** The invariant every atom keeps, whatever the body. */
function checkRanges(body: Uint8Array, atoms: Atom[]): void {
  for (const a of atoms) {
    expect(a.byteStart).toBeGreaterThanOrEqual(0);
    expect(a.byteEnd).toBeGreaterThan(a.byteStart);
    expect(a.byteEnd).toBeLessThanOrEqual(body.length);
    expect(isValidUtf8(body, a.byteStart, a.byteEnd)).toBe(true);
    expect(dec.decode(body.subarray(a.byteStart, a.byteEnd))).toBe(a.text);
  }
}

const kind = fc.constantFrom(...SPAN_KINDS);

/** Bytes that look like transcripts: ASCII text, atom-ish fragments, multi-byte and broken UTF-8. */
const fragment = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
  fc.constantFrom(
    "/etc/hosts",
    " ~/.bashrc ",
    "./src/a b.ts",
    "caf\u00e9/men\u00fc.md",
    '"quoted"',
    "'single'",
    "\u201ccurly\u201d",
    "`tick`",
    "\\u00e9",
    '\\"',
    "2026-03-05T14:22:01Z",
    "Tue, 05 Mar 2026 14:22:01 +0000",
    "550e8400-e29b-41d4-a716-446655440000",
    "abc1234f",
    "JIRA-12",
    "#45",
    "5 MB",
    "200ms",
    "exit code 1",
    "https://x.io/a?b=c",
    "did not",
    "no files were changed",
    " > /tmp/out",
    " <<EOF\nbody\nEOF\n",
    "sudo tee /etc/x",
    "; rm -rf build",
    "{",
    "}",
    '"cmd":',
    "[",
    "]",
    ",",
    "\n",
  ),
);
const garbage = fc.uint8Array({ minLength: 1, maxLength: 6 }).map((b) => Array.from(b));
const bodyArb = fc
  .array(fc.oneof({ weight: 4, arbitrary: fragment.map((s) => Array.from(enc.encode(s))) }, { weight: 1, arbitrary: garbage }), {
    maxLength: 40,
  })
  .map((parts) => Uint8Array.from(parts.flat()));

describe("byte ranges (property)", () => {
  it("every atom slices exactly its text out of arbitrary bytes, for every span kind", () => {
    fc.assert(
      fc.property(
        bodyArb,
        kind,
        fc.option(fc.constantFrom("Bash", "Write", "shell", "apply_patch", "run", "mystery"), { nil: undefined }),
        (body, k, toolName) => {
          const input: SpanInput = { body, kind: k, cwd: "/w" };
          if (toolName) input.toolName = toolName;
          checkRanges(body, extractAtoms(input));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("holds for fully random bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), kind, (body, k) => {
        checkRanges(body, extractAtoms({ body, kind: k }));
      }),
      { numRuns: 1000 },
    );
  });

  it("holds for JSON tool calls with arbitrary (escaped, multi-byte) string values", () => {
    const value = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 30 }),
      fragment,
      fc.array(fragment, { maxLength: 4 }).map((xs) => xs.join(" ")),
    );
    fc.assert(
      fc.property(
        fc.constantFrom("Bash", "Write", "Edit", "shell", "exec_command", "write_file", "http_request", "unknown_tool"),
        fc.dictionary(
          fc.constantFrom("command", "file_path", "path", "content", "cmd", "url", "method", "workdir", "note"),
          value,
        ),
        fc.boolean(),
        (toolName, args, wrap) => {
          const json = wrap
            ? JSON.stringify({ type: "function_call", name: toolName, arguments: JSON.stringify(args) })
            : JSON.stringify(args);
          const body = enc.encode(json);
          const input: SpanInput = { body, kind: "TOOL_CALL", toolName, toolInput: args, cwd: "/w" };
          const { atoms, classification } = analyzeSpan(input);
          checkRanges(body, atoms);
          expect(classification.class === "SIDE_EFFECTING").toBe(classification.effects.length > 0);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("holds for shell commands built from quoted and escaped words", () => {
    const word = fc.oneof(
      fc.stringMatching(/^[a-z./~_-]{1,10}$/),
      fc.string({ unit: "grapheme", maxLength: 8 }).map((s) => `"${s.replace(/["\\$`]/g, "")}"`),
      fc.string({ unit: "grapheme", maxLength: 8 }).map((s) => `'${s.replace(/'/g, "")}'`),
      fc.constantFrom(
        "a\\ b",
        "$HOME/x",
        "$(date)",
        ">",
        ">>",
        "2>&1",
        "|",
        "&&",
        ";",
        "<<EOF\nx\nEOF\n",
        "sudo",
        "rm",
        "tee",
        "cp",
        "sed",
        "-i",
      ),
    );
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 12 }), fc.boolean(), (words, asJson) => {
        const command = words.join(" ");
        const body = enc.encode(asJson ? JSON.stringify({ command }) : command);
        checkRanges(body, extractAtoms({ body, kind: "TOOL_CALL", toolName: "Bash", cwd: "/w" }));
      }),
      { numRuns: 1000 },
    );
  });
});

describe("inserted atoms are found (property)", () => {
  const filler = fc.string({ unit: "grapheme", maxLength: 40 }).map((s) => s.replace(/[\s/~$"'`\\.:#\d\u201c\u201d-]/g, "x"));
  const ident = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);

  it("absolute paths and uuids in arbitrary text keep their exact bytes and values", () => {
    fc.assert(
      fc.property(filler, fc.array(ident, { minLength: 1, maxLength: 4 }), fc.uuid(), filler, (before, segs, uuid, after) => {
        const path = `/srv/${segs.join("/")}`;
        const text = `${before} ${path} ${after} ${uuid.toUpperCase()} ${before}`;
        const body = enc.encode(text);
        const atoms = extractAtoms({ body, kind: "MESSAGE" });
        checkRanges(body, atoms);
        const p = atoms.find((a) => a.kind === "PATH" && a.normalized === path);
        expect(p?.text).toBe(path);
        const u = atoms.find((a) => a.kind === "IDENTIFIER" && a.normalized === uuid.toLowerCase());
        expect(u?.text).toBe(uuid.toUpperCase());
        expect(dec.decode(body.subarray(0, p!.byteStart))).toBe(`${before} `);
      }),
      { numRuns: 500 },
    );
  });

  it("a path written by a shell redirect carries FILE_WRITE however it is quoted", () => {
    fc.assert(
      fc.property(
        fc.array(ident, { minLength: 1, maxLength: 3 }),
        fc.constantFrom("plain", "double", "single"),
        fc.constantFrom(">", ">>"),
        (segs, q, op) => {
          const path = `/tmp/${segs.join("/")}`;
          const quoted = q === "double" ? `"${path}"` : q === "single" ? `'${path}'` : path;
          const body = enc.encode(JSON.stringify({ command: `echo hi ${op} ${quoted}` }));
          const atoms = extractAtoms({ body, kind: "TOOL_CALL", toolName: "Bash" });
          checkRanges(body, atoms);
          const p = atoms.find((a) => a.kind === "PATH" && a.normalized === path);
          expect(p?.effect).toBe("FILE_WRITE");
          expect(p?.text).toBe(path);
        },
      ),
      { numRuns: 300 },
    );
  });
});
