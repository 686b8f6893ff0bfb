import { describe, expect, it } from "vitest";
import { Text } from "../atoms/text";
import { tokenize } from "./tokenize";

function script(s: string) {
  const t = Text.contiguous(s, 0);
  return { t, ...tokenize(t) };
}
const values = (s: string) => script(s).commands.map((c) => c.words.map((w) => w.value));

describe("shell tokenizer", () => {
  it("splits on ; && || | & and newlines", () => {
    expect(values("a 1; b && c || d | e & f\ng")).toEqual([["a", "1"], ["b"], ["c"], ["d"], ["e"], ["f"], ["g"]]);
  });

  it("removes quotes and escapes, keeping the raw range", () => {
    const { commands, t } = script(`cp "a b" 'c d' e\\ f "x"'y'z $'n\\tm'`);
    const ws = commands[0]!.words;
    expect(ws.map((w) => w.value)).toEqual(["cp", "a b", "c d", "e f", "xyz", "n\tm"]);
    expect(t.s.slice(ws[1]!.a, ws[1]!.b)).toBe('"a b"');
    // The value's text maps to the bytes inside the quotes.
    const v = ws[1]!.text();
    expect(t.s.slice(v.byteAt(0), v.byteAt(v.s.length))).toBe("a b");
    expect(ws[1]!.quotedWhole).toBe(true);
    expect(ws[4]!.quotedWhole).toBe(false);
  });

  it("keeps $(...) and backticks inside their word", () => {
    expect(values('echo "$(date +%s)" `whoami` ${HOME}/x')).toEqual([["echo", "$(date +%s)", "`whoami`", "${HOME}/x"]]);
  });

  it("reads redirections and their targets, fd duplications have none", () => {
    const c = script("cmd > out.txt 2>&1 >> log 2> err <in &>all").commands[0]!;
    expect(c.redirects.map((r) => [r.op, r.fd, r.target?.value ?? null])).toEqual([
      [">", null, "out.txt"],
      [">&", 2, null],
      [">>", null, "log"],
      [">", 2, "err"],
      ["<", null, "in"],
      ["&>", null, "all"],
    ]);
  });

  it("reads here-documents as data, after the line that opens them", () => {
    const s = "cat > /etc/x <<'EOF'\nline one\n  $NOT_EXPANDED\nEOF\necho done";
    const { commands, heredocs } = script(s);
    expect(commands.map((c) => c.words[0]!.value)).toEqual(["cat", "echo"]);
    expect(heredocs).toHaveLength(1);
    expect(s.slice(heredocs[0]!.a, heredocs[0]!.b)).toBe("line one\n  $NOT_EXPANDED\n");
    expect(heredocs[0]!.literal).toBe(true);
  });

  it("<<- strips leading tabs from the delimiter line", () => {
    const s = "cat <<-END\n\tbody\n\tEND\nnext";
    const { commands, heredocs } = script(s);
    expect(s.slice(heredocs[0]!.a, heredocs[0]!.b)).toBe("\tbody\n");
    expect(commands.map((c) => c.words[0]!.value)).toEqual(["cat", "next"]);
  });

  it("comments end at the line; # inside a word is not a comment", () => {
    expect(values("ls # list\ncurl http://x/#frag")).toEqual([["ls"], ["curl", "http://x/#frag"]]);
  });

  it("marks pipes on both sides", () => {
    const cs = script("echo x | sudo tee /f | wc").commands;
    expect(cs.map((c) => [c.pipedFrom, c.pipedTo])).toEqual([
      [false, true],
      [true, true],
      [true, false],
    ]);
  });
});
