/**
 * Path normalisation (POSIX): absolute against the working directory, "~" and "$HOME" expanded,
 * "." and ".." resolved, duplicate and trailing slashes dropped. When the runtime reports no home
 * directory, "~" means "/home/user" (DEFAULT_HOME_DIR). When it reports no working directory, a
 * relative path stays relative (cleaned), because guessing a directory would invent evidence.
 */
import { DEFAULT_HOME_DIR } from "../path-prefix";

export { DEFAULT_HOME_DIR };

export function normalizePath(raw: string, cwd: string | undefined, home: string = DEFAULT_HOME_DIR): string {
  let p = raw;
  if (p === "~" || p.startsWith("~/")) p = home + p.slice(1);
  else if (p.startsWith("~")) {
    // ~name/...: another user's home (root's is /root).
    const slash = p.indexOf("/");
    const user = slash < 0 ? p.slice(1) : p.slice(1, slash);
    const rest = slash < 0 ? "" : p.slice(slash);
    p = (user === "root" ? "/root" : `/home/${user}`) + rest;
  } else if (p.startsWith("$HOME")) p = home + p.slice(5);
  else if (p.startsWith("${HOME}")) p = home + p.slice(7);

  if (!p.startsWith("/")) {
    // Unknown variables cannot be resolved: keep them visible rather than prefixing a cwd.
    if (p.startsWith("$")) return cleanRelative(p);
    if (cwd?.startsWith("/")) p = `${cwd}/${p}`;
    else return cleanRelative(p);
  }
  return resolveAbsolute(p);
}

/** Anything that needs resolving: "//", "/./", "/../", a trailing slash. */
const NEEDS_RESOLVING = /\/\/|\/\.\.?(?:\/|$)|.\/$/;

function resolveAbsolute(p: string): string {
  if (!NEEDS_RESOLVING.test(p)) return p;
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return `/${out.join("/")}`;
}

function cleanRelative(p: string): string {
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else out.push(seg);
  }
  return out.length === 0 ? "." : out.join("/");
}

/** Directory names that make a two-segment relative path believable ("src/app", "lib/evidence"). */
const KNOWN_DIRS = new Set(
  (
    "src lib app apps test tests spec specs docs doc bin sbin etc usr var tmp opt home root srv build dist out " +
    "target node_modules packages pkg cmd internal scripts script config configs conf public static assets " +
    "components pages api server client web include vendor third_party tools fixtures examples example data " +
    "migrations prisma deploy infra charts templates .github .git .vscode .config .ssh .cache venv .venv env e2e"
  ).split(" "),
);

/** Top-level directories that make a one-segment absolute path ("/etc", "/tmp") believable. */
const ROOT_DIRS = new Set(
  "etc usr var tmp home opt bin sbin lib lib64 root srv mnt media dev proc sys boot run workspace workspaces app data nix snap Users Volumes private Library System Applications testbed repo code project".split(
    " ",
  ),
);

const EXT_RE = /\.[A-Za-z0-9]{1,12}$/;
const ALL_DIGITS_AND_SLASHES = /^[\d/.-]+$/;

/** Whether a regex-found absolute path is believable as a path (not "/s" in "km/s"). */
export function plausibleAbsolute(p: string): boolean {
  // Strip the ~, $HOME or dot prefix: those are paths by construction.
  if (p[0] !== "/") return true;
  const rest = p.slice(1);
  const slash = rest.indexOf("/");
  if (slash >= 0 && slash < rest.length - 1) return true;
  const seg = slash >= 0 ? rest.slice(0, slash) : rest;
  return ROOT_DIRS.has(seg) || EXT_RE.test(seg);
}

/** Whether a regex-found relative path with a slash is believable ("src/app.ts" yes, "and/or" no). */
export function plausibleRelative(p: string): boolean {
  if (ALL_DIGITS_AND_SLASHES.test(p)) return false; // dates, fractions, versions
  // Fast path for the common shapes: "dir/name.ext" and anything with three segments.
  const lastSlash = p.lastIndexOf("/");
  if (
    lastSlash > 0 &&
    lastSlash < p.length - 1 &&
    EXT_RE.test(p.slice(lastSlash + 1)) &&
    !/^\d+\.\d+$/.test(p.slice(lastSlash + 1))
  )
    return true;
  const segs = p.split("/").filter((s) => s !== "");
  if (segs.length === 0) return false;
  if (p.endsWith("/") && segs.length >= 1 && segs[0]!.length > 1) return true;
  const last = segs[segs.length - 1]!;
  if (EXT_RE.test(last) && !/^\d+\.\d+$/.test(last)) return true;
  if (segs.length >= 3) return true;
  return KNOWN_DIRS.has(segs[0]!);
}

/** Words ending in a known extension that are not files in prose. */
const BARE_FILE_STOPLIST = new Set([
  "node.js",
  "next.js",
  "nuxt.js",
  "vue.js",
  "react.js",
  "express.js",
  "three.js",
  "d3.js",
  "chart.js",
  "socket.io",
  "e.g",
  "i.e",
  "asp.net",
]);

export function plausibleBareFile(name: string): boolean {
  return !BARE_FILE_STOPLIST.has(name.toLowerCase());
}

/** Trailing characters that end a sentence rather than a path. */
const TRAILING_PUNCT = /[.,;:!?'")\]}>*]+$/;

/** Length of `p` without sentence punctuation glued to its end ("/etc/hosts." -> "/etc/hosts"). */
export function trimPathEnd(p: string): number {
  const m = TRAILING_PUNCT.exec(p);
  if (!m) return p.length;
  let end = m.index;
  // Keep a trailing ".." segment ("cd ..").
  if (p.endsWith("..") && (end === p.length - 2 || p[p.length - 3] === "/")) end = p.length;
  return end;
}

/** A shell word or argument value that reads as a path on its own. */
export function looksLikePath(v: string): boolean {
  if (v.length === 0 || v.length > 4096 || v.includes("\n")) return false;
  const c = v[0];
  if (c === "/") return true;
  if (c === "~") return v.length === 1 || v[1] === "/" || /^~[\w.-]+(\/|$)/.test(v);
  if (v.startsWith("./") || v.startsWith("../") || v === "." || v === "..") return true;
  if (v.startsWith("$HOME") || v.startsWith("${HOME}")) return true;
  if (v.includes("://")) return false;
  if (v.includes("/")) return !/\s/.test(v) && plausibleRelative(v);
  return false;
}
