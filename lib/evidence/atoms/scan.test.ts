import { describe, expect, it } from "vitest";
import { extractAtoms } from "../atoms";
import type { Atom, AtomKind, SpanInput } from "../types";

const enc = new TextEncoder();

function atoms(body: string, extra: Partial<SpanInput> = {}): Atom[] {
  return extractAtoms({ body: enc.encode(body), kind: "MESSAGE", ...extra });
}
function norm(body: string, kind: AtomKind, extra: Partial<SpanInput> = {}): string[] {
  return atoms(body, extra)
    .filter((a) => a.kind === kind)
    .map((a) => a.normalized);
}

describe("paths", () => {
  it("resolves ~, ./ and .. against home and cwd", () => {
    expect(norm("edit ~/.config/app.toml and ./src/../lib/x.ts", "PATH", { cwd: "/work/app", homeDir: "/home/ana" })).toEqual([
      "/home/ana/.config/app.toml",
      "/work/app/lib/x.ts",
    ]);
  });

  it("uses /home/user when the runtime reports no home", () => {
    expect(norm("appended to ~/.bashrc", "PATH")).toEqual(["/home/user/.bashrc"]);
  });

  it("keeps relative paths relative without a cwd, trims trailing slashes and punctuation", () => {
    expect(norm("see src/app.ts, lib/evidence/ and /var/log/nginx/.", "PATH")).toEqual([
      "src/app.ts",
      "lib/evidence",
      "/var/log/nginx",
    ]);
  });

  it("does not take prose slashes for paths", () => {
    expect(norm("and/or, km/h, 3/4, 12/05/2024, TCP/IP, w/o", "PATH")).toEqual([]);
  });

  it("takes bare file names with known extensions and dotfiles", () => {
    expect(norm("I updated README.md and .gitignore (not Node.js)", "PATH", { cwd: "/r" })).toEqual([
      "/r/README.md",
      "/r/.gitignore",
    ]);
  });

  it("expands $HOME", () => {
    expect(norm("cp $HOME/.npmrc ${HOME}/backup/", "PATH", { homeDir: "/home/ana" })).toEqual([
      "/home/ana/.npmrc",
      "/home/ana/backup",
    ]);
  });

  it("a quoted path may hold spaces", () => {
    expect(norm('opened "/Users/ana/My Documents/notes.txt" ok', "PATH")).toEqual(["/Users/ana/My Documents/notes.txt"]);
  });

  it("paths inside URLs are part of the URL", () => {
    const a = atoms("fetched https://example.com/a/b/c.json");
    expect(a.map((x) => x.kind)).toEqual(["URL"]);
  });
});

describe("numbers", () => {
  it("canonical value and unit", () => {
    expect(norm("5MB, 5 mb, 1.50 seconds, 200ms, 1,024 files, 1 file, 45%", "NUMBER")).toEqual([
      "5 MB",
      "5 MB",
      "1.5 s",
      "200 ms",
      "1024 files",
      "1 files",
      "45 %",
    ]);
  });

  it("exit codes, with the label in the text", () => {
    const a = atoms("Process exited with code 2; exit status 127. Exit code: 0").filter((x) => x.kind === "NUMBER");
    expect(a.map((x) => [x.text, x.normalized])).toEqual([
      ["exited with code 2", "2 exit_code"],
      ["exit status 127", "127 exit_code"],
      ["Exit code: 0", "0 exit_code"],
    ]);
  });

  it("bare numbers and versions are not atoms", () => {
    expect(norm("version 1.2.3 on port 8080, step 4", "NUMBER")).toEqual([]);
  });
});

describe("timestamps", () => {
  it("ISO 8601 with zones, to UTC", () => {
    expect(norm("at 2026-03-05T14:22:01+02:00 and 2026-03-05 12:22:01Z and 2026-03-05T12:22:01.5Z", "TIMESTAMP")).toEqual([
      "2026-03-05T12:22:01.000Z",
      "2026-03-05T12:22:01.000Z",
      "2026-03-05T12:22:01.500Z",
    ]);
  });

  it("a date alone stays a date; impossible dates are not timestamps", () => {
    expect(norm("released 2026-02-28, not 2026-02-30 or 2026-13-01", "TIMESTAMP")).toEqual(["2026-02-28"]);
  });

  it("RFC 2822, date(1) and common log format", () => {
    expect(
      norm("Thu, 05 Mar 2026 12:22:01 +0100 / Thu Mar  5 12:22:01 UTC 2026 / [05/Mar/2026:12:22:01 -0500]", "TIMESTAMP"),
    ).toEqual(["2026-03-05T11:22:01.000Z", "2026-03-05T12:22:01.000Z", "2026-03-05T17:22:01.000Z"]);
  });

  it("unix epochs only where labelled", () => {
    expect(norm('ts=1772717311 "created_at": 1772717311000 but 1772717311 alone', "TIMESTAMP")).toEqual([
      "2026-03-05T13:28:31.000Z",
      "2026-03-05T13:28:31.000Z",
    ]);
  });
});

describe("identifiers", () => {
  it("uuids, commit shas, hashes, tickets, lower-cased", () => {
    expect(norm("F47AC10B-58CC-4372-A567-0E02B2C3D479 9fceb02 PROJ-12 GH-7 #31 CVE-2024-3094", "IDENTIFIER")).toEqual([
      "f47ac10b-58cc-4372-a567-0e02b2c3d479",
      "9fceb02",
      "proj-12",
      "gh-7",
      "#31",
      "cve-2024-3094",
    ]);
  });

  it("words made of hex letters, standards and plain numbers are not ids", () => {
    expect(norm("we added a decade of faced effaced UTF-8 ISO-8601 SHA-256 1234567", "IDENTIFIER")).toEqual([]);
  });
});

describe("quoted strings and commands", () => {
  it("double, single, back and curly quotes; apostrophes are not quotes", () => {
    expect(norm(`it's "fine" and 'ok' with \`npm ci\` and “this” — don't`, "QUOTED")).toEqual(["fine", "ok", "npm ci", "this"]);
  });

  it("in JSON output a key is a field's name, not a quote: its value is the atom, the key only when it is a path", () => {
    const out = `bd show --json:\n[{"title": "Fix login", "created_by" : "ana", "/etc/app.conf": "changed"}]`;
    expect(norm(out, "QUOTED", { kind: "TOOL_RESULT" })).toEqual(["Fix login", "ana", "changed"]);
    expect(norm(out, "PATH", { kind: "TOOL_RESULT" })).toEqual(["/etc/app.conf"]);
  });

  it("a prompt line in a result is a command", () => {
    expect(norm("$ kubectl get pods -n prod\nNAME READY", "COMMAND", { kind: "TOOL_RESULT" })).toEqual([
      "kubectl get pods -n prod",
    ]);
  });
});

describe("negations", () => {
  it("a cue negates what follows in its clause", () => {
    const a = atoms("I didn't touch /etc/hosts. I edited /etc/motd.");
    expect(a.find((x) => x.normalized === "/etc/hosts")?.negated).toBe(true);
    expect(a.find((x) => x.normalized === "/etc/motd")?.negated).toBeUndefined();
    expect(a.find((x) => x.kind === "NEGATION")?.normalized).toBe("did not");
  });

  it("contrast ends the scope", () => {
    const a = atoms("I did not delete /tmp/cache, but I removed /tmp/old");
    expect(a.filter((x) => x.kind === "PATH").map((x) => [x.normalized, x.negated ?? false])).toEqual([
      ["/tmp/cache", true],
      ["/tmp/old", false],
    ]);
  });

  it("a cue inside a quote stays inside it", () => {
    const a = atoms('Committed "did not change config" then wrote /etc/app.conf');
    expect(a.find((x) => x.kind === "PATH")?.negated).toBeUndefined();
  });

  it("data (file contents) carries negation atoms but no scopes", () => {
    const input: SpanInput = {
      body: enc.encode(JSON.stringify({ file_path: "/r/NOTES.md", content: "Do not edit /r/gen.ts by hand" })),
      kind: "TOOL_CALL",
      toolName: "Write",
    };
    const a = extractAtoms(input);
    expect(a.some((x) => x.kind === "NEGATION")).toBe(true);
    expect(a.some((x) => x.negated)).toBe(false);
  });
});
