/**
 * Matching normalised paths against the path prefixes a policy names (system config, exclusions).
 *
 * Prefix syntax, chosen so a policy owner can write what they mean without knowing user names:
 * - "/etc/"      a directory or file and everything below it, on the normalised (absolute) path.
 *                A trailing slash is optional: "/etc/" also matches "/etc" itself (so `rm -rf /etc`
 *                counts), and "/etc/ssh" does not match "/etc/sshd_config" (a prefix is a path, not
 *                a string: "/etc/app/conf" must not claim "/etc/app/conf.yaml").
 * - "~/.bashrc"  relative to ANY home directory (/home/<user>/, /root/, /Users/<user>/), because
 *                atoms are normalised against whatever home the runtime reported.
 * - "~/.*"       any dotfile or dot-directory directly in a home directory (see `isHomeDotfile`).
 */

/** Home used to normalise "~" when the runtime did not report one. */
export const DEFAULT_HOME_DIR = "/home/user";

/** The token that stands for "any dotfile directly in a home directory". */
export const HOME_DOTFILES_TOKEN = "~/.*";

/**
 * The part of `path` below its home directory, without a leading slash, or null when the path is
 * not inside a home directory. "/home/alice/.bashrc" -> ".bashrc"; "/root" -> "".
 */
export function homeRelative(path: string): string | null {
  let rest: string;
  if (path === "/root" || path.startsWith("/root/")) {
    rest = path.slice("/root".length);
  } else {
    const base = path.startsWith("/home/") ? "/home/".length : path.startsWith("/Users/") ? "/Users/".length : -1;
    if (base < 0 || path.length === base) return null;
    const slash = path.indexOf("/", base);
    if (slash === base) return null; // "/home//x": no user name
    // No further slash: "/home/alice" is the home directory itself.
    rest = slash < 0 ? "" : path.slice(slash);
  }
  return rest.startsWith("/") ? rest.slice(1) : rest;
}

/**
 * True for a dotfile or dot-directory directly in a home directory, or anything below such a
 * dot-directory: "/home/u/.bashrc", "/root/.profile", "/home/u/.ssh/authorized_keys". Those are
 * the user's shell, ssh and tool configuration. "/home/u/project/.env" is not: it sits in a
 * project, not in the home directory itself. "." and ".." are not dotfiles.
 */
export function isHomeDotfile(path: string): boolean {
  const rel = homeRelative(path);
  return rel !== null && isDotfileBelowHome(rel);
}

/** isHomeDotfile on the part of a path below its home directory (homeRelative). */
function isDotfileBelowHome(rel: string): boolean {
  if (!rel.startsWith(".")) return false;
  const first = rel.split("/", 1)[0] ?? "";
  return first !== "." && first !== "..";
}

/** True when the normalised `path` falls under `prefix` (syntax in the file comment). */
export function pathMatchesPrefix(path: string, prefix: string): boolean {
  if (prefix === HOME_DOTFILES_TOKEN) return isHomeDotfile(path);
  if (prefix.startsWith("~/")) {
    const rel = homeRelative(path);
    return rel !== null && isPathUnder(`/${rel}`, `/${prefix.slice(2)}`);
  }
  return isPathUnder(path, prefix);
}

export function pathMatchesAnyPrefix(path: string, prefixes: readonly string[]): boolean {
  return compilePathPrefixes(prefixes)(path);
}

/**
 * pathMatchesAnyPrefix as one test made once for a list of prefixes: each prefix's directory is
 * worked out when the test is made, and a path's part below its home directory at most once per
 * path. An evidence question tests every candidate atom against every system-config prefix.
 */
export function compilePathPrefixes(prefixes: readonly string[]): (path: string) => boolean {
  const absolute: Directory[] = [];
  const belowHome: Directory[] = [];
  let dotfiles = false;
  for (const prefix of prefixes) {
    if (prefix === HOME_DOTFILES_TOKEN) dotfiles = true;
    else if (prefix.startsWith("~/")) belowHome.push(directory(`/${prefix.slice(2)}`));
    else absolute.push(directory(prefix));
  }
  return (path) => {
    for (const d of absolute) if (holds(d, path)) return true;
    if (belowHome.length === 0 && !dotfiles) return false;
    const rel = homeRelative(path);
    if (rel === null) return false;
    if (dotfiles && isDotfileBelowHome(rel)) return true;
    const relPath = `/${rel}`;
    for (const d of belowHome) if (holds(d, relPath)) return true;
    return false;
  };
}

/** A directory as isPathUnder reads it: `below` is what a path under it starts with (null: the root). */
interface Directory {
  dir: string;
  below: string | null;
}

function directory(dir: string): Directory {
  const d = dir.length > 1 && dir.endsWith("/") ? dir.slice(0, -1) : dir;
  return { dir: d, below: d === "/" ? null : `${d}/` };
}

function holds(d: Directory, path: string): boolean {
  return d.below === null ? path.startsWith("/") : path === d.dir || path.startsWith(d.below);
}

/** True when `path` is `dir` or below it (a sibling such as "/work/app2" is not below "/work/app"). */
export function isPathUnder(path: string, dir: string): boolean {
  return holds(directory(dir), path);
}
