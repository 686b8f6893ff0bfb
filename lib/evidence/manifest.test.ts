import { describe, expect, it } from "vitest";
import { checkManifest, compareSummary, countByKind, formatManifest, makeHonestSummary, parseManifestText } from "./manifest";
import { containsBounded } from "./summary-text";
import { atom, atomIn } from "./testkit";
import type { ProvenancePointer } from "./types";

const BODY = 'write_file(path="/etc/app/conf.yaml", mode="overwrite")';
const atoms = [
  atomIn(BODY, "TOOL_CALL", "write_file"),
  atomIn(BODY, "TOOL_ARG", '"/etc/app/conf.yaml"', { normalized: "/etc/app/conf.yaml", argName: "path" }),
  atomIn(BODY, "PATH", "/etc/app/conf.yaml", { effect: "FILE_WRITE" }),
  atomIn(BODY, "TOOL_ARG", '"overwrite"', { normalized: "overwrite", argName: "mode" }),
];
const pointer: ProvenancePointer = { spanId: "sp-0042", byteStart: 0, byteEnd: 55, sha256: "ABCDEF0123456789".padEnd(64, "0") };

describe("compareSummary", () => {
  it("the seed's summary drops every atom", () => {
    const { kept, dropped } = compareSummary(atoms, "The agent configured the application's YAML configuration.");
    expect(kept).toEqual([]);
    expect(dropped).toEqual(atoms);
  });

  it("keeps atoms by exact text or normalised value", () => {
    const { kept, dropped } = compareSummary(atoms, "Called write_file on /etc/app/conf.yaml.");
    expect(kept.map((a) => a.kind)).toEqual(["TOOL_CALL", "TOOL_ARG", "PATH"]);
    expect(dropped.map((a) => a.normalized)).toEqual(["overwrite"]);
  });

  it("respects token boundaries", () => {
    const five = atom("NUMBER", "5");
    expect(compareSummary([five], "took 15 seconds").dropped).toEqual([five]);
    expect(compareSummary([five], "took 5 seconds").kept).toEqual([five]);
    expect(compareSummary([five], "retried 5.").kept).toEqual([five]);
    expect(compareSummary([five], "version 5.5").dropped).toEqual([five]);
    const p = atom("PATH", "/etc/app/conf.yaml");
    expect(compareSummary([p], "edited /etc/app/conf.yaml.bak").dropped).toEqual([p]);
    expect(compareSummary([p], "edited /home/u/etc/app/conf.yaml").dropped).toEqual([p]);
    expect(compareSummary([p], "edited “/etc/app/conf.yaml”").kept).toEqual([p]);
    expect(compareSummary([atom("PATH", "/etc/app")], "edited /etc/app/conf.yaml").dropped).toHaveLength(1);
  });

  it("matches identifiers case-insensitively, paths case-sensitively", () => {
    const sha = atom("IDENTIFIER", "3F2A9C1");
    expect(compareSummary([sha], "commit 3f2a9c1 pushed").kept).toEqual([sha]);
    const p = atom("PATH", "/etc/App.conf");
    expect(compareSummary([p], "wrote /etc/app.conf").dropped).toEqual([p]);
  });

  it("tolerates re-flowed whitespace in commands", () => {
    const cmd = atom("COMMAND", "apt-get  install\n-y nginx");
    expect(compareSummary([cmd], "ran apt-get install -y nginx").kept).toEqual([cmd]);
  });

  it("keeps a negation only with its phrase and everything it negates", () => {
    const neg = atom("NEGATION", "did not write");
    const hosts = atom("PATH", "/etc/hosts", { negated: true });
    expect(compareSummary([neg, hosts], "The agent did not write /etc/hosts").kept).toEqual([neg, hosts]);
    // The phrase alone says nothing about what was not done.
    expect(compareSummary([neg, hosts], "It did not write anything important").dropped).toEqual([neg, hosts]);
    // Keeping the path but losing the negation inverts the fact: the negation counts as dropped.
    expect(compareSummary([neg, hosts], "The agent wrote /etc/hosts").dropped).toEqual([neg]);
    expect(compareSummary([neg, hosts], "The agent DID NOT WRITE /etc/hosts").kept).toHaveLength(2);
  });

  it("containsBounded finds later bounded occurrences", () => {
    expect(containsBounded("a15 and 5", "5")).toBe(true);
    expect(containsBounded("", "x")).toBe(false);
  });
});

describe("checkManifest", () => {
  const dropped = [atom("PATH", "/a"), atom("TOOL_ARG", "x"), atom("TOOL_ARG", "y")];

  it("is honest when every dropped atom is named by kind and count and a pointer is carried", () => {
    const m = {
      omitted: [
        { kind: "PATH" as const, count: 1 },
        { kind: "TOOL_ARG" as const, count: 2 },
      ],
    };
    expect(checkManifest(dropped, m, true)).toEqual({ honest: true, hasManifest: true, hasPointer: true, missing: [] });
  });

  it("names the shortfall per kind", () => {
    const m = { omitted: [{ kind: "TOOL_ARG" as const, count: 1 }] };
    expect(checkManifest(dropped, m, true).missing).toEqual([
      { kind: "PATH", count: 1 },
      { kind: "TOOL_ARG", count: 1 },
    ]);
  });

  it("adds up repeated kinds and ignores malformed counts", () => {
    const m = {
      omitted: [
        { kind: "TOOL_ARG" as const, count: 1 },
        { kind: "TOOL_ARG" as const, count: 1 },
        { kind: "PATH" as const, count: Number.NaN },
      ],
    };
    expect(checkManifest(dropped, m, true).missing).toEqual([{ kind: "PATH", count: 1 }]);
  });

  it("is never honest without a pointer or without a manifest", () => {
    const full = {
      omitted: [
        { kind: "PATH" as const, count: 1 },
        { kind: "TOOL_ARG" as const, count: 2 },
      ],
    };
    expect(checkManifest(dropped, full, false).honest).toBe(false);
    expect(checkManifest(dropped, undefined, true)).toMatchObject({ honest: false, hasManifest: false });
    expect(checkManifest([], undefined, true).honest).toBe(false);
    expect(checkManifest([], { omitted: [] }, true).honest).toBe(true);
  });
});

describe("makeHonestSummary / formatManifest / parseManifestText", () => {
  it("produces a manifest naming exactly what the text drops, and a readable line", () => {
    const s = makeHonestSummary(atoms, "The agent configured the application's YAML configuration.", pointer);
    expect(s.pointers).toEqual([pointer]);
    expect(s.omissions).toEqual({
      omitted: [
        { kind: "PATH", count: 1 },
        { kind: "TOOL_CALL", count: 1 },
        { kind: "TOOL_ARG", count: 2 },
      ],
    });
    expect(s.text).toBe(
      "The agent configured the application's YAML configuration.\n" +
        "[omitted: 1 path, 1 tool call, 2 tool arguments; original: sp-0042@0-55 sha256:abcdef012345]",
    );
    const { dropped } = compareSummary(atoms, s.text);
    expect(checkManifest(dropped, s.omissions, true).honest).toBe(true);
  });

  it("can list values and leave the text alone", () => {
    const s = makeHonestSummary(atoms, "Wrote /etc/app/conf.yaml", [pointer], { includeValues: true, appendManifestLine: false });
    expect(s.text).toBe("Wrote /etc/app/conf.yaml");
    expect(s.omissions!.omitted).toEqual([
      { kind: "TOOL_CALL", count: 1, values: ["write_file"] },
      { kind: "TOOL_ARG", count: 1, values: ["overwrite"] },
    ]);
  });

  it("formats an empty manifest and several pointers", () => {
    expect(formatManifest({ omitted: [] }, [])).toBe("omitted: nothing; original: none");
    expect(formatManifest({ omitted: [{ kind: "URL", count: 2 }] }, [pointer, { ...pointer, spanId: "b" }])).toBe(
      "omitted: 2 URLs; original: sp-0042@0-55 sha256:abcdef012345, b@0-55 sha256:abcdef012345",
    );
  });

  it("parses its own output back", () => {
    const s = makeHonestSummary(atoms, "Configured it.", pointer);
    expect(parseManifestText(s.text)).toEqual({
      manifest: s.omissions,
      pointers: [{ spanId: "sp-0042", byteStart: 0, byteEnd: 55, sha256Prefix: "abcdef012345" }],
      unreadable: [],
    });
    expect(parseManifestText("no manifest here")).toBeNull();
    expect(parseManifestText("omitted: 3 widgets; original: none")?.unreadable).toEqual(["3 widgets"]);
    expect(parseManifestText("omitted: nothing")?.manifest).toEqual({ omitted: [] });
  });

  it("countByKind follows the vocabulary order", () => {
    expect(countByKind([atom("NUMBER", "1"), atom("PATH", "/a"), atom("NUMBER", "2")])).toEqual([
      { kind: "PATH", count: 1 },
      { kind: "NUMBER", count: 2 },
    ]);
  });
});
