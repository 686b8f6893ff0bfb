/**
 * File commands: what they write, delete, move or only read.
 */
import { has, optionValue, parseArgs } from "../options";
import { relabel, type Word } from "../tokenize";
import { NONE, effect, type CommandResult, type Handler } from "../types";

const SINK_PATHS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "-"]);
export function isSinkPath(v: string): boolean {
  return SINK_PATHS.has(v) || v.startsWith("/dev/fd/");
}

function writes(rule: string, targets: Word[], reads: Word[] = []): CommandResult {
  return {
    findings: [
      effect(
        "FILE_WRITE",
        rule,
        targets.filter((w) => !isSinkPath(w.value)),
      ),
    ],
    reads,
  };
}

/** Commands that only read their operands (the operands that look like paths become PATH atoms). */
export const READ_ONLY = new Set(
  (
    "ls ll la dir vdir cat tac less more head tail wc pwd echo printf which whereis type file stat du df ps pgrep " +
    "printenv whoami id uname date cd pushd popd true false test [ [[ ]] ]] uniq cut tr jq yq diff cmp comm tree " +
    "basename dirname realpath readlink sleep history man help info nl fold column od hexdump strings nm objdump " +
    "readelf ldd md5sum sha1sum sha224sum sha256sum sha384sum sha512sum shasum cksum b2sum base32 base64 uptime " +
    "free nproc lscpu lsblk lsof netstat ss ping ping6 dig nslookup host traceroute tracepath whois rev paste join " +
    "expand unexpand fmt pr seq yes locate getent groups last w who tty clear exit return wait jobs set export " +
    "unset alias unalias shopt read local declare typeset let trap ulimit umask hash complete bind dirs logout " +
    "grep egrep fgrep rg ag ack zcat zgrep bzcat xzcat zless lsattr getfacl env arch hostid nvidia-smi top htop " +
    "vmstat iostat mpstat sar dmesg journalctl lsmod lspci lsusb blkid findmnt mountpoint iconv numfmt tsort " +
    "sum wdiff colordiff delta bat exa eza fd fdfind fzf glow tldr cal ncal xmllint column shellcheck hadolint " +
    "stty tput printf apt-cache dpkg-query apt-file rpmquery"
  ).split(" "),
);

export const rm: Handler = (c) => {
  const p = parseArgs(c.args);
  return { findings: [effect("FILE_DELETE", "shell.file-delete", p.operands)] };
};

export const mv: Handler = (c) => {
  const p = parseArgs(c.args, { short: "tS", long: ["target-directory", "suffix"] });
  const t = p.opts.get("t") ?? p.opts.get("target-directory");
  const targets = [...p.operands];
  const tv = optionValue(t, "t");
  const f = effect("FILE_MOVE", "shell.file-move", targets);
  if (tv) {
    f.targets = [...(f.targets ?? []), tv.word];
    f.targetOffsets = new Map([[tv.word, tv.offset]]);
  }
  return { findings: [f] };
};

/** cp, install, rsync, scp: the destination is written, the sources are read. */
function copyLike(rule: string, spec: { short?: string; long?: string[] }): Handler {
  return (c) => {
    const p = parseArgs(c.args, spec);
    const tOpt = p.opts.get("t") ?? p.opts.get("target-directory");
    if (c.name === "install" && has(p, "d", "directory")) return writes(rule, p.operands);
    if (tOpt) {
      const tv = optionValue(tOpt, "t")!;
      const f = effect("FILE_WRITE", rule, [tv.word]);
      f.targetOffsets = new Map([[tv.word, tv.offset]]);
      return { findings: [f], reads: p.operands };
    }
    if (p.operands.length < 2) return { findings: [effect("FILE_WRITE", rule)], reads: p.operands };
    const dest = p.operands[p.operands.length - 1]!;
    const sources = p.operands.slice(0, -1);
    if (/^[^/]*[^\\/]:/.test(dest.value) && !dest.value.startsWith("./")) {
      // host:path is another machine: a network write, not a local path.
      return { findings: [effect("NETWORK_MUTATION", "shell.remote-copy")], reads: sources, consumed: [dest] };
    }
    return writes(rule, [dest], sources);
  };
}

export const cp = copyLike("shell.file-write", { short: "tS", long: ["target-directory", "suffix", "backup"] });
export const install = copyLike("shell.file-write", {
  short: "tmogS",
  long: ["target-directory", "mode", "owner", "group", "suffix"],
});
export const rsync = copyLike("shell.file-write", {
  short: "efT",
  long: [
    "exclude",
    "include",
    "filter",
    "rsh",
    "rsync-path",
    "temp-dir",
    "exclude-from",
    "include-from",
    "files-from",
    "chmod",
    "chown",
    "log-file",
    "backup-dir",
    "partial-dir",
    "link-dest",
    "compare-dest",
    "copy-dest",
    "password-file",
    "port",
    "timeout",
    "bwlimit",
    "max-size",
    "min-size",
  ],
});
export const scp = copyLike("shell.file-write", { short: "cFiJloPS", long: [] });

export const ln: Handler = (c) => {
  const p = parseArgs(c.args, { short: "tS", long: ["target-directory", "suffix"] });
  if (p.operands.length === 0) return NONE;
  const link = p.operands.length === 1 ? p.operands[0]! : p.operands[p.operands.length - 1]!;
  return writes("shell.file-write", [link], p.operands.length > 1 ? p.operands.slice(0, -1) : []);
};

/** touch, mkdir, mkfifo, truncate, tee: every operand is written. */
export function writesOperands(rule: string, spec: { short?: string; long?: string[] } = {}): Handler {
  return (c) => writes(rule, parseArgs(c.args, spec).operands);
}

export const touch = writesOperands("shell.file-write", { short: "dtr", long: ["date", "reference"] });
export const mkdir = writesOperands("shell.file-write", { short: "mZ", long: ["mode", "context"] });
export const truncate = writesOperands("shell.file-write", { short: "sr", long: ["size", "reference"] });
export const tee = writesOperands("shell.tee");

export const mktemp: Handler = (c) => {
  const p = parseArgs(c.args, { short: "pt", long: ["tmpdir", "suffix"] });
  if (has(p, "u", "dry-run")) return NONE;
  return { findings: [effect("FILE_WRITE", "shell.file-write")], consumed: p.operands };
};

export const dd: Handler = (c) => {
  const findings = [];
  const reads: Word[] = [];
  const offsets = new Map<Word, number>();
  const targets: Word[] = [];
  for (const w of c.args) {
    if (w.value.startsWith("of=")) {
      targets.push(w);
      offsets.set(w, 3);
    } else if (w.value.startsWith("if=")) reads.push(w);
  }
  const f = effect("FILE_WRITE", "shell.file-write", targets);
  if (targets.length) f.targetOffsets = offsets;
  findings.push(f);
  return { findings, consumed: c.args.filter((w) => !targets.includes(w)) };
};

/** chmod/chown/chgrp: the first operand is the mode or owner (even "-x"), the rest are files. */
export const permissions: Handler = (c) => {
  const files: Word[] = [];
  const consumed: Word[] = [];
  let modeSeen = false;
  let byReference = false;
  for (const w of c.args) {
    const v = w.value;
    if (!w.quoted && (/^-[RvcfhHLP]+$/.test(v) || (v.startsWith("--") && v.length > 2))) {
      if (v.startsWith("--reference")) byReference = true;
      continue;
    }
    if (!modeSeen && !byReference) {
      modeSeen = true;
      consumed.push(w);
    } else files.push(w);
  }
  return { findings: [effect("PERMISSION_CHANGE", "shell.permission", files)], consumed };
};

export const aclLike: Handler = (c) => {
  const p = parseArgs(c.args, { short: "mxMX", long: ["modify", "remove", "set", "set-file", "modify-file", "remove-file"] });
  return { findings: [effect("PERMISSION_CHANGE", "shell.permission", c.name === "chattr" ? p.operands.slice(1) : p.operands)] };
};

/** sed: in place with -i, otherwise a filter that reads its files. */
export const sed: Handler = (c) => {
  const p = parseArgs(c.args, { short: "efl", long: ["expression", "file", "line-length"] });
  const inPlace = p.all.some((o) => o.name === "i" || o.name === "in-place" || o.name.startsWith("in-place"));
  const scriptGiven = has(p, "e", "f", "expression", "file");
  const files = scriptGiven ? p.operands : p.operands.slice(1);
  const consumed = scriptGiven ? [] : p.operands.slice(0, 1);
  for (const o of p.all) if ((o.name === "e" || o.name === "expression") && o.value) consumed.push(o.value);
  if (!inPlace) return { findings: [], reads: files, consumed };
  return { findings: [effect("FILE_WRITE", "shell.sed-in-place", files)], consumed };
};

/** perl -i (in place) writes its files; any other perl runs code. */
export const perl: Handler = (c) => {
  const p = parseArgs(c.args, { short: "eEIMmx", long: [] });
  const inPlace = p.all.some((o) => o.name === "i");
  const code = p.all.filter((o) => (o.name === "e" || o.name === "E") && o.value).map((o) => o.value!);
  const hasCode = code.length > 0;
  const files = hasCode ? p.operands : p.operands.slice(1);
  if (inPlace) return { findings: [effect("FILE_WRITE", "shell.perl-in-place", files)], consumed: code };
  if (p.operands.length === 0 && !hasCode) return NONE;
  return { findings: [effect("SHELL_MUTATION", "shell.runs-code")], consumed: code, reads: files };
};

/** awk: read-only unless in place or the program runs commands. */
export const awk: Handler = (c) => {
  const p = parseArgs(c.args, { short: "fvFi", long: ["file", "assign", "field-separator", "include"] });
  const progFile = p.opts.get("f") ?? p.opts.get("file");
  const program = progFile ? null : (p.operands[0] ?? null);
  const files = progFile ? p.operands : p.operands.slice(1);
  const consumed = program ? [program] : [];
  const inplace = p.all.some((o) => (o.name === "i" || o.name === "include") && o.value?.value === "inplace");
  if (inplace) return { findings: [effect("FILE_WRITE", "shell.awk-in-place", files)], consumed };
  if (program && /\bsystem\s*\(|\|\s*"|print[^;}]*>\s*"/.test(program.value)) {
    return { findings: [effect("SHELL_MUTATION", "shell.runs-code")], consumed, reads: files };
  }
  return { findings: [], consumed, reads: files };
};

/** sort -o and uniq IN OUT write; otherwise they read. */
export const sort: Handler = (c) => {
  const p = parseArgs(c.args, {
    short: "oktST",
    long: ["output", "key", "field-separator", "buffer-size", "temporary-directory", "parallel", "files0-from"],
  });
  const out = p.opts.get("o") ?? p.opts.get("output");
  if (!out) return { findings: [], reads: p.operands };
  const v = optionValue(out, "o")!;
  const f = effect("FILE_WRITE", "shell.file-write", [v.word]);
  f.targetOffsets = new Map([[v.word, v.offset]]);
  return { findings: [f], reads: p.operands };
};

export const uniq: Handler = (c) => {
  const p = parseArgs(c.args, { short: "fsw", long: ["skip-fields", "skip-chars", "check-chars", "group", "all-repeated"] });
  if (p.operands.length >= 2) return writes("shell.file-write", [p.operands[1]!], [p.operands[0]!]);
  return { findings: [], reads: p.operands };
};

/** find: read-only unless -delete, -exec/-ok of a mutating command, or -fprint. */
export const find: Handler = (c) => {
  const roots: Word[] = [];
  let i = 0;
  while (i < c.args.length && !/^[-(!]/.test(c.args[i]!.value)) roots.push(c.args[i++]!);
  const findings = [];
  const consumed: Word[] = [];
  for (; i < c.args.length; i++) {
    const w = c.args[i]!;
    const v = w.value;
    if (v === "-delete") findings.push(effect("FILE_DELETE", "shell.find-delete", roots));
    else if (v === "-exec" || v === "-execdir" || v === "-ok" || v === "-okdir") {
      const words: Word[] = [];
      let j = i + 1;
      while (j < c.args.length && c.args[j]!.value !== ";" && c.args[j]!.value !== "+") words.push(c.args[j++]!);
      const sub = c.sub(words);
      for (const f of sub.findings) findings.push({ ...f, targets: [...(f.targets ?? []), ...roots] });
      consumed.push(...words.filter((x) => !(sub.reads ?? []).includes(x)));
      i = j;
    } else if (v === "-fprint" || v === "-fprint0" || v === "-fprintf" || v === "-fls") {
      const target = c.args[i + 1];
      if (target) findings.push(effect("FILE_WRITE", "shell.file-write", [target]));
      i += v === "-fprintf" ? 2 : 1;
    } else if (
      /^-(?:i?name|i?path|i?wholename|i?regex|newer|type|size|perm|user|group|mtime|mmin|atime|amin|ctime|cmin|maxdepth|mindepth|printf|fstype|links|inum|samefile|context)$/.test(
        v,
      )
    ) {
      const arg = c.args[i + 1];
      if (arg) consumed.push(arg);
      i++;
    }
  }
  return { findings, reads: roots, consumed };
};

/** tar: extracting writes where it extracts, creating writes the archive, listing reads. */
export const tar: Handler = (c) => {
  const first = c.args[0];
  const args = [...c.args];
  // Old-style bundle without a dash: "tar xzf app.tgz".
  if (first && !first.value.startsWith("-") && /^[A-Za-z]+$/.test(first.value)) {
    args[0] = relabel(first, `-${first.value}`);
  }
  const p = parseArgs(args, {
    short: "fCTXbgHKLNV",
    long: [
      "file",
      "directory",
      "files-from",
      "exclude-from",
      "exclude",
      "format",
      "transform",
      "owner",
      "group",
      "mode",
      "strip-components",
    ],
  });
  const archive = p.opts.get("f") ?? p.opts.get("file");
  const dir = p.opts.get("C") ?? p.opts.get("directory");
  const archiveWord = archive ? optionValue(archive, "f")?.word : undefined;
  if (has(p, "x", "extract", "get")) {
    const f = effect("FILE_WRITE", "shell.archive-extract", dir ? [optionValue(dir, "C")!.word] : undefined);
    return { findings: [f], reads: archiveWord ? [archiveWord] : [], consumed: p.operands };
  }
  if (has(p, "c", "create", "r", "append", "u", "update", "A", "catenate", "delete")) {
    return {
      findings: [effect("FILE_WRITE", "shell.archive-create", archiveWord ? [archiveWord] : undefined)],
      reads: p.operands,
    };
  }
  return { findings: [], reads: archiveWord ? [archiveWord] : [] };
};

export const unzip: Handler = (c) => {
  const p = parseArgs(c.args, { short: "dxP", long: [] });
  if (has(p, "l", "t", "v", "Z", "p")) return { findings: [], reads: p.operands.slice(0, 1) };
  const d = p.opts.get("d");
  return {
    findings: [effect("FILE_WRITE", "shell.archive-extract", d ? [optionValue(d, "d")!.word] : undefined)],
    reads: p.operands.slice(0, 1),
    consumed: p.operands.slice(1),
  };
};

export const zip: Handler = (c) => {
  const p = parseArgs(c.args, { short: "xibnt", long: [] });
  if (p.operands.length === 0) return NONE;
  return writes("shell.archive-create", [p.operands[0]!], p.operands.slice(1));
};

/** gzip and friends replace their operands unless they write to stdout or only test/list. */
export const compressor: Handler = (c) => {
  const p = parseArgs(c.args, { short: "S", long: ["suffix"] });
  if (has(p, "c", "stdout", "to-stdout", "l", "list", "t", "test")) return { findings: [], reads: p.operands };
  return writes("shell.file-write", p.operands);
};

export const patch: Handler = (c) => {
  const p = parseArgs(c.args, { short: "ipdoBDFrVYz", long: ["input", "strip", "directory", "output", "prefix", "reject-file"] });
  const input = p.opts.get("i") ?? p.opts.get("input");
  if (has(p, "dry-run")) return { findings: [], reads: input ? [optionValue(input, "i")!.word] : [] };
  return {
    findings: [effect("FILE_WRITE", "shell.patch", p.operands.slice(0, 1))],
    reads: [...(input ? [optionValue(input, "i")!.word] : []), ...p.operands.slice(1)],
  };
};

/** Interactive editors: conservatively, they write what they open. */
export const editor = writesOperands("shell.editor");
