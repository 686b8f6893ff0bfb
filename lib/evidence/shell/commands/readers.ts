/**
 * Read-only commands whose operands are files (`cat x`, `head -n 5 x`, `grep pat x`): their
 * operands are PATH atoms without an effect. Knowing the options that take a value keeps
 * "5" in `head -n 5 x` from being read as a file.
 */
import { parseArgs, type OptionSpec } from "../options";
import type { Handler } from "../types";

function reader(spec: OptionSpec = {}, skipOperands = 0): Handler {
  return (c) => {
    const p = parseArgs(c.args, spec);
    return { findings: [], reads: p.operands.slice(skipOperands), consumed: p.operands.slice(0, skipOperands) };
  };
}

/** grep, rg...: the first operand is the pattern unless one was given with -e or -f. */
function searcher(spec: OptionSpec, patternOptions: string[]): Handler {
  return (c) => {
    const p = parseArgs(c.args, spec);
    const patternGiven = patternOptions.some((o) => p.opts.has(o));
    const skip = patternGiven ? 0 : 1;
    const patterns = p.all.filter((o) => patternOptions.includes(o.name) && o.value).map((o) => o.value!);
    return { findings: [], reads: p.operands.slice(skip), consumed: [...p.operands.slice(0, skip), ...patterns] };
  };
}

const GREP: OptionSpec = {
  short: "efmABCdD",
  long: [
    "regexp",
    "file",
    "max-count",
    "after-context",
    "before-context",
    "context",
    "include",
    "exclude",
    "exclude-dir",
    "exclude-from",
    "label",
    "color",
    "colour",
    "binary-files",
    "devices",
    "directories",
    "group-separator",
  ],
};
const RG: OptionSpec = {
  short: "efgtTmABCrEjMd",
  long: [
    "regexp",
    "file",
    "glob",
    "iglob",
    "type",
    "type-not",
    "type-add",
    "max-count",
    "after-context",
    "before-context",
    "context",
    "replace",
    "encoding",
    "max-columns",
    "max-depth",
    "max-filesize",
    "sort",
    "sortr",
    "threads",
    "color",
    "colors",
    "pre",
    "pre-glob",
    "path-separator",
    "context-separator",
    "field-match-separator",
  ],
};

export const READERS: Record<string, Handler> = {
  cat: reader({ short: "" }),
  tac: reader({ short: "s", long: ["separator"] }),
  nl: reader({ short: "bdfhilnsvw" }),
  less: reader({ short: "xjbhyzPo" }),
  more: reader({ short: "n" }),
  head: reader({ short: "nc", long: ["lines", "bytes"] }),
  tail: reader({ short: "ncs", long: ["lines", "bytes", "pid", "sleep-interval", "max-unchanged-stats"] }),
  wc: reader({ long: ["files0-from"] }),
  ls: reader({
    short: "ITw",
    long: [
      "ignore",
      "hide",
      "width",
      "format",
      "sort",
      "time",
      "time-style",
      "color",
      "block-size",
      "quoting-style",
      "indicator-style",
      "tabsize",
    ],
  }),
  ll: reader(),
  la: reader(),
  tree: reader({ short: "LIPo", long: ["filelimit", "timefmt", "charset", "sort"] }),
  stat: reader({ short: "cf", long: ["format", "printf"] }),
  file: reader({ short: "fmFeP", long: ["files-from", "magic-file", "separator", "exclude", "parameter"] }),
  du: reader({
    short: "dBtX",
    long: ["max-depth", "exclude", "block-size", "threshold", "time-style", "exclude-from", "files0-from"],
  }),
  df: reader({ short: "tBx", long: ["type", "exclude-type", "block-size", "output"] }),
  diff: reader({
    short: "UCFIxXSLD",
    long: [
      "unified",
      "context",
      "ignore-matching-lines",
      "exclude",
      "exclude-from",
      "label",
      "starting-file",
      "show-function-line",
      "line-format",
      "from-file",
      "to-file",
      "color",
      "palette",
    ],
  }),
  cmp: reader({ short: "inI", long: ["ignore-initial", "bytes"] }),
  comm: reader(),
  readlink: reader(),
  realpath: reader({ long: ["relative-to", "relative-base"] }),
  basename: reader({ short: "s", long: ["suffix"] }),
  dirname: reader(),
  md5sum: reader(),
  sha1sum: reader(),
  sha224sum: reader(),
  sha256sum: reader(),
  sha384sum: reader(),
  sha512sum: reader(),
  shasum: reader({ short: "a", long: ["algorithm"] }),
  b2sum: reader({ short: "l", long: ["length"] }),
  cksum: reader({ short: "a", long: ["algorithm"] }),
  strings: reader({ short: "ntseT", long: ["bytes", "radix", "encoding", "target"] }),
  od: reader({ short: "AjNtw", long: ["address-radix", "skip-bytes", "read-bytes", "format", "width"] }),
  hexdump: reader({ short: "ensf", long: [] }),
  xxd: reader({ short: "cglos", long: [] }),
  bat: reader({
    short: "lrHm",
    long: [
      "language",
      "line-range",
      "highlight-line",
      "map-syntax",
      "theme",
      "style",
      "tabs",
      "wrap",
      "terminal-width",
      "color",
      "paging",
      "pager",
    ],
  }),
  cut: reader({ short: "bcdf", long: ["bytes", "characters", "delimiter", "fields", "output-delimiter"] }),
  paste: reader({ short: "d", long: ["delimiters"] }),
  join: reader({ short: "12jteo" }),
  column: reader({ short: "tscoNRHWOEd", long: [] }),
  fold: reader({ short: "w", long: ["width"] }),
  fmt: reader({ short: "wpg", long: ["width", "prefix", "goal"] }),
  expand: reader({ short: "t", long: ["tabs"] }),
  zcat: reader(),
  bzcat: reader(),
  xzcat: reader(),
  zless: reader(),
  base64: reader({ short: "w", long: ["wrap"] }),
  jq: reader({ short: "f", long: ["arg", "argjson", "slurpfile", "rawfile", "indent", "from-file"] }, 1),
  yq: reader({ short: "opI", long: ["output-format", "input-format", "indent"] }, 1),
  xmllint: reader({ long: ["xpath", "schema", "relaxng", "dtdvalid", "encode", "output"] }),
  shellcheck: reader({ short: "eofsSPW", long: ["exclude", "format", "shell", "severity", "source-path", "enable", "include"] }),
  lsattr: reader(),
  getfacl: reader(),
  grep: searcher(GREP, ["e", "f", "regexp", "file"]),
  egrep: searcher(GREP, ["e", "f", "regexp", "file"]),
  fgrep: searcher(GREP, ["e", "f", "regexp", "file"]),
  zgrep: searcher(GREP, ["e", "f", "regexp", "file"]),
  rg: searcher(RG, ["e", "f", "regexp", "file"]),
  ag: searcher(
    { short: "ABCGgm", long: ["after", "before", "context", "file-search-regex", "ignore", "max-count", "depth", "pager"] },
    [],
  ),
  ack: searcher(
    { short: "ABCmg", long: ["after-context", "before-context", "context", "max-count", "type", "ignore-dir", "ignore-file"] },
    [],
  ),
};
