import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringToBinary, toBinaryString, binaryToString } from "./bytes";
import { field, parseJson, type JNode } from "./json";
import { Text } from "./text";

const enc = new TextEncoder();
const dec = new TextDecoder();

function docOf(json: string) {
  const body = enc.encode(json);
  const doc = parseJson(Text.contiguous(toBinaryString(body), 0));
  return { body, doc };
}

describe("positioned JSON", () => {
  it("only objects and arrays are JSON bodies", () => {
    expect(docOf('"just a string"').doc).toBeNull();
    expect(docOf("42").doc).toBeNull();
    expect(docOf("{not json").doc).toBeNull();
    expect(docOf('{"a":1}').doc).not.toBeNull();
  });

  it("reads JSON Lines as several roots", () => {
    const { doc } = docOf('{"a":1}\n{"b":[1,2]}\n');
    expect(doc!.roots).toHaveLength(2);
  });

  it("maps an escaped string's characters back to their escape bytes", () => {
    const { body, doc } = docOf('{"path":"/srv/caf\\u00e9/x \\"y\\".txt"}');
    const root = doc!.roots[0]! as JNode & { k: "o" };
    const v = field(root, "path")! as JNode & { k: "s" };
    const t = doc!.text(v);
    expect(binaryToString(t.s)).toBe('/srv/café/x "y".txt');
    // The whole value spans exactly the raw bytes between the quotes.
    expect(dec.decode(body.subarray(t.byteAt(0), t.byteAt(t.s.length)))).toBe('/srv/caf\\u00e9/x \\"y\\".txt');
    // A sub-range after the escapes still lands on the right bytes.
    const x = t.s.indexOf("x");
    expect(dec.decode(body.subarray(t.byteAt(x), t.byteAt(x + 1)))).toBe("x");
  });

  it("handles surrogate pairs and lone surrogates", () => {
    const { doc } = docOf('["\\ud83d\\ude00", "\\udc00"]');
    const arr = doc!.roots[0]! as JNode & { k: "a" };
    expect(binaryToString(doc!.text(arr.items[0] as JNode & { k: "s" }).s)).toBe("😀");
    expect(binaryToString(doc!.text(arr.items[1] as JNode & { k: "s" }).s)).toBe("\ufffd");
  });

  it("parses what JSON.stringify writes, values unescaped exactly", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ unit: "grapheme", maxLength: 20 })), (obj) => {
        const json = JSON.stringify(obj);
        const { body, doc } = docOf(json);
        expect(doc).not.toBeNull();
        const root = doc!.roots[0]! as JNode & { k: "o" };
        for (const [k, v] of Object.entries(obj)) {
          const node = field(root, stringToBinary(k));
          expect(node?.k).toBe("s");
          const t = doc!.text(node as JNode & { k: "s" });
          expect(binaryToString(t.s)).toBe(v);
          const raw = JSON.stringify(v).slice(1, -1);
          expect(dec.decode(body.subarray(t.byteAt(0), t.byteAt(t.s.length)))).toBe(raw);
        }
      }),
    );
  });

  it("JSON nested in a JSON string maps through both layers", () => {
    const inner = JSON.stringify({ command: 'echo "hi" > /tmp/a b.txt' });
    const { body, doc } = docOf(JSON.stringify({ arguments: inner }));
    const root = doc!.roots[0]! as JNode & { k: "o" };
    const s = field(root, "arguments") as JNode & { k: "s" };
    const innerDoc = parseJson(doc!.text(s))!;
    const cmd = field(innerDoc.roots[0] as JNode & { k: "o" }, "command") as JNode & { k: "s" };
    const t = innerDoc.text(cmd);
    expect(t.s).toBe('echo "hi" > /tmp/a b.txt');
    const p = t.s.indexOf("/tmp");
    expect(dec.decode(body.subarray(t.byteAt(p), t.byteAt(t.s.length)))).toBe("/tmp/a b.txt");
    const q = t.s.indexOf('"');
    expect(dec.decode(body.subarray(t.byteAt(q), t.byteAt(q + 4)))).toBe('\\\\\\"hi\\\\\\"');
  });
});
