/**
 * Package managers: installs and removals (PACKAGE_INSTALL / PACKAGE_REMOVE, each package a
 * TOOL_ARG atom named "package"), index refreshes and the like as mutations, queries read-only.
 */
import type { SideEffectKind } from "../../types";
import { parseArgs, optionValue } from "../options";
import type { Word } from "../tokenize";
import { NONE, effect, type CommandResult, type Handler } from "../types";
import { own } from "../../own";

type Verb = "install" | "remove" | "mutate" | "read" | "code";

interface Manager {
  verbs: Record<string, Verb>;
  /** Verb when there is no sub-command ("yarn" alone installs). */
  bare?: Verb;
  /** Verb for sub-commands not listed (npm's are scripts, i.e. code). */
  other?: Verb;
  /** Options that take a value. */
  short?: string;
  long?: string[];
  /** Option (with value) whose value is a requirements file to read ("-r"). */
  fileOptions?: string[];
}

function verbs(spec: Partial<Record<Verb, string>>): Record<string, Verb> {
  const out: Record<string, Verb> = {};
  for (const [verb, names] of Object.entries(spec) as Array<[Verb, string]>) for (const n of names.split(" ")) out[n] = verb;
  return out;
}

const APT: Manager = {
  verbs: verbs({
    install: "install reinstall upgrade dist-upgrade full-upgrade build-dep satisfy",
    remove: "remove purge autoremove autopurge",
    mutate: "update clean autoclean download source edit-sources",
    read: "list search show showpkg policy depends rdepends changelog madison pkgnames stats dump help moo",
  }),
  short: "octa",
  long: ["option", "config-file", "target-release", "host-architecture"],
};

const JS: Manager = {
  verbs: verbs({
    install: "install i add ci isntall update up upgrade audit-fix link",
    remove: "uninstall un remove rm r unlink prune dedupe",
    mutate:
      "init create version publish unpublish deprecate dist-tag cache config set pack login logout adduser owner team token star unstar",
    read: "ls list ll la view v info show outdated search s find root prefix bin help doctor whoami ping explain why query audit fund docs repo bugs home config-get get licenses",
    code: "run run-script test t tst start stop restart exec x dlx create-react-app",
  }),
  other: "code",
  short: "wC",
  long: ["prefix", "registry", "workspace", "filter", "cwd", "dir", "cache", "tag", "otp"],
};

const PIP: Manager = {
  verbs: verbs({
    install: "install",
    remove: "uninstall",
    mutate: "download wheel cache config",
    read: "list show freeze check search debug inspect index hash help completion",
  }),
  short: "rceitf",
  long: [
    "requirement",
    "constraint",
    "editable",
    "index-url",
    "extra-index-url",
    "target",
    "find-links",
    "prefix",
    "root",
    "src",
    "python",
    "platform",
    "implementation",
    "abi",
    "trusted-host",
    "cert",
    "proxy",
    "timeout",
    "retries",
    "log",
    "cache-dir",
  ],
  fileOptions: ["r", "requirement", "c", "constraint"],
};

const MANAGERS: Record<string, Manager> = {
  apt: APT,
  "apt-get": APT,
  aptitude: APT,
  yum: {
    verbs: verbs({
      install: "install reinstall update upgrade groupinstall localinstall downgrade",
      remove: "remove erase autoremove groupremove",
      mutate: "makecache clean",
      read: "list info search provides whatprovides repolist check-update history deplist help",
    }),
    short: "cdex",
    long: ["enablerepo", "disablerepo", "installroot", "releasever"],
  },
  dnf: {
    verbs: verbs({
      install: "install reinstall update upgrade downgrade group distro-sync",
      remove: "remove erase autoremove",
      mutate: "makecache clean",
      read: "list info search provides repolist repoquery check-update history deplist help",
    }),
    short: "cdex",
    long: ["enablerepo", "disablerepo", "installroot", "releasever"],
  },
  microdnf: {
    verbs: verbs({ install: "install reinstall update upgrade", remove: "remove", mutate: "clean makecache", read: "repoquery" }),
  },
  zypper: {
    verbs: verbs({
      install: "install in update up dist-upgrade dup patch",
      remove: "remove rm",
      mutate: "refresh ref addrepo ar removerepo rr clean",
      read: "search se info if list-updates lu repos lr packages pa patches",
    }),
  },
  apk: {
    verbs: verbs({
      install: "add upgrade fix",
      remove: "del",
      mutate: "update cache",
      read: "info search list policy dot stats audit verify",
    }),
    short: "X",
    long: ["repository", "root", "virtual", "t"],
  },
  brew: {
    verbs: verbs({
      install: "install reinstall upgrade link tap",
      remove: "uninstall remove rm unlink untap autoremove",
      mutate: "update cleanup services pin unpin",
      read: "list ls info search doctor config deps uses outdated leaves desc home --version --prefix --cellar",
    }),
  },
  port: {
    verbs: verbs({
      install: "install upgrade",
      remove: "uninstall",
      mutate: "selfupdate clean",
      read: "search info installed outdated deps",
    }),
  },
  snap: {
    verbs: verbs({
      install: "install refresh revert",
      remove: "remove",
      mutate: "enable disable connect disconnect set",
      read: "list find info version changes services",
    }),
  },
  flatpak: {
    verbs: verbs({
      install: "install update",
      remove: "uninstall",
      mutate: "remote-add remote-delete repair",
      read: "list info search remotes",
    }),
  },
  pip: PIP,
  pip3: PIP,
  pipx: {
    verbs: verbs({
      install: "install inject upgrade upgrade-all reinstall reinstall-all",
      remove: "uninstall uninstall-all uninject",
      read: "list environment",
      code: "run",
    }),
  },
  conda: {
    verbs: verbs({
      install: "install update upgrade create",
      remove: "remove uninstall",
      mutate: "clean config env init",
      read: "list info search",
      code: "run",
    }),
    short: "ncp",
    long: ["name", "channel", "prefix", "file"],
  },
  mamba: {
    verbs: verbs({
      install: "install update upgrade create",
      remove: "remove uninstall",
      mutate: "clean",
      read: "list info search",
    }),
    short: "ncp",
    long: ["name", "channel", "prefix"],
  },
  micromamba: {
    verbs: verbs({ install: "install update create", remove: "remove", read: "list info search" }),
    short: "ncp",
    long: ["name", "channel", "prefix"],
  },
  poetry: {
    verbs: verbs({
      install: "add install update lock",
      remove: "remove",
      mutate: "init new build publish version config",
      read: "show check search env about list",
      code: "run shell",
    }),
  },
  pipenv: {
    verbs: verbs({
      install: "install update sync lock",
      remove: "uninstall clean",
      read: "graph check requirements --where --venv",
      code: "run shell",
    }),
  },
  uv: {
    verbs: verbs({
      install: "add sync lock",
      remove: "remove",
      mutate: "init venv build publish cache",
      read: "tree version",
      code: "run",
    }),
  },
  gem: {
    verbs: verbs({
      install: "install update",
      remove: "uninstall cleanup",
      mutate: "build push",
      read: "list search info query specification contents dependency environment help",
    }),
  },
  bundle: {
    verbs: verbs({ install: "install update add", remove: "remove clean", read: "list show outdated check info", code: "exec" }),
    bare: "install",
  },
  npm: JS,
  pnpm: JS,
  yarn: { ...JS, bare: "install" },
  bun: { ...JS, other: "code" },
  cargo: {
    verbs: verbs({
      install: "install add update",
      remove: "uninstall remove",
      mutate: "new init publish fix fmt clean generate-lockfile vendor",
      read: "tree metadata search version --version help verify-project read-manifest locate-project pkgid",
      code: "run test build b t r check c bench doc clippy",
    }),
    other: "code",
  },
  go: {
    verbs: verbs({
      install: "install get",
      mutate: "generate fmt mod work clean",
      read: "version env list doc vet help",
      code: "run test build tool",
    }),
    other: "code",
  },
  composer: {
    verbs: verbs({
      install: "require install update upgrade",
      remove: "remove",
      mutate: "create-project dump-autoload",
      read: "show info search outdated validate diagnose",
      code: "run-script run exec",
    }),
  },
  dotnet: {
    verbs: verbs({
      install: "add restore",
      remove: "remove",
      mutate: "new publish pack clean",
      read: "list --info --version --list-sdks --list-runtimes",
      code: "run test build",
    }),
    other: "code",
  },
  nix: { verbs: verbs({ install: "profile", read: "search eval show-config", code: "run develop shell build" }), other: "code" },
  "nix-env": { verbs: verbs({}), other: "mutate" },
  cpanm: { verbs: verbs({}), bare: "install", other: "install" },
  luarocks: { verbs: verbs({ install: "install", remove: "remove", read: "list search show" }) },
  choco: { verbs: verbs({ install: "install upgrade", remove: "uninstall", read: "list search info outdated" }) },
  winget: { verbs: verbs({ install: "install upgrade", remove: "uninstall", read: "list search show" }) },
  scoop: { verbs: verbs({ install: "install update", remove: "uninstall", read: "list search info status" }) },
};

export function isPackageManager(name: string): boolean {
  return Object.hasOwn(MANAGERS, name) || name === "dpkg" || name === "rpm" || name === "pacman";
}

const VERB_EFFECT: Record<"install" | "remove", SideEffectKind> = { install: "PACKAGE_INSTALL", remove: "PACKAGE_REMOVE" };

export const packageManager: Handler = (c) => {
  if (c.name === "dpkg" || c.name === "rpm" || c.name === "pacman") return flagDriven(c.name, c.args);
  const m = own(MANAGERS, c.name);
  if (!m) return NONE;
  const p = parseArgs(c.args, { short: m.short, long: m.long, stopAtOperand: true });
  const subWord = p.operands[0];
  let rest = p.operands.slice(1);
  // "uv pip install x": a nested manager.
  if ((c.name === "uv" || c.name === "conda") && subWord?.value === "pip") {
    const nested = packageManager(c.withArgs("pip", rest));
    return { ...nested, consumed: [...(nested.consumed ?? []), subWord] };
  }
  const known = subWord ? own(m.verbs, subWord.value) : undefined;
  const verb: Verb | undefined = subWord ? (known ?? m.other) : m.bare;
  if (subWord && known === undefined && m.other === undefined) {
    // A manager's unknown sub-command: not known to be read-only.
    return { findings: [effect("SHELL_MUTATION", "shell.package-manager")], consumed: p.operands };
  }
  if (!subWord) rest = [];
  const consumed = subWord ? [subWord] : [];
  switch (verb) {
    case undefined:
    case "read":
      return { findings: [], consumed: [...consumed, ...rest.filter((w) => !w.value.includes("/"))] };
    case "code":
      return { findings: [effect("SHELL_MUTATION", "shell.runs-code")], consumed: [...consumed, ...rest] };
    case "mutate":
      return { findings: [effect("SHELL_MUTATION", "shell.package-manager")], consumed: [...consumed, ...rest] };
    default:
      return packageChange(VERB_EFFECT[verb], rest, m, consumed, p.all);
  }
};

function packageChange(
  kind: SideEffectKind,
  rest: Word[],
  m: Manager,
  consumed: Word[],
  leading: Array<{ name: string; value: Word | null }>,
): CommandResult {
  const p = parseArgs(rest, { short: m.short, long: m.long });
  const reads: Word[] = [];
  for (const o of [...leading, ...p.all]) {
    if (o.value && (m.fileOptions ?? []).includes(o.name)) reads.push(optionValue(o.value, o.name)!.word);
    else if (o.value && (o.name === "e" || o.name === "editable")) reads.push(o.value);
  }
  const packages = p.operands.filter((w) => !/^\.{0,2}\//.test(w.value));
  const localPaths = p.operands.filter((w) => /^\.{0,2}\//.test(w.value));
  const rule = kind === "PACKAGE_INSTALL" ? "shell.package-install" : "shell.package-remove";
  return {
    findings: [{ effect: kind, rule, args: packages.map((word) => ({ word, argName: "package" })) }],
    reads: [...reads, ...localPaths],
    consumed: [...consumed, ...packages],
  };
}

/** dpkg, rpm and pacman choose the operation by flag. */
function flagDriven(name: string, args: Word[]): CommandResult {
  const p = parseArgs(args, { short: name === "rpm" ? "D" : "", long: ["root", "admindir", "instdir"] });
  const flags = new Set(p.opts.keys());
  let kind: SideEffectKind | null = null;
  if (name === "dpkg") {
    if (flags.has("i") || flags.has("install") || flags.has("unpack") || flags.has("configure")) kind = "PACKAGE_INSTALL";
    else if (flags.has("r") || flags.has("P") || flags.has("remove") || flags.has("purge")) kind = "PACKAGE_REMOVE";
  } else if (name === "rpm") {
    if (flags.has("q") || flags.has("query") || flags.has("V") || flags.has("verify")) kind = null;
    else if (flags.has("i") || flags.has("U") || flags.has("F") || flags.has("install") || flags.has("upgrade"))
      kind = "PACKAGE_INSTALL";
    else if (flags.has("e") || flags.has("erase")) kind = "PACKAGE_REMOVE";
  } else if (flags.has("S") || flags.has("U") || flags.has("sync") || flags.has("upgrade")) {
    kind = flags.has("s") || flags.has("i") || flags.has("search") || flags.has("info") ? null : "PACKAGE_INSTALL";
  } else if (flags.has("R") || flags.has("remove")) kind = "PACKAGE_REMOVE";
  if (kind === null) return { findings: [], consumed: p.operands.filter((w) => !w.value.includes("/")) };
  const files = p.operands.filter((w) => w.value.includes("/") || /\.(?:deb|rpm|pkg\.tar\.\w+)$/.test(w.value));
  const packages = p.operands.filter((w) => !files.includes(w));
  return {
    findings: [
      {
        effect: kind,
        rule: kind === "PACKAGE_INSTALL" ? "shell.package-install" : "shell.package-remove",
        args: packages.map((word) => ({ word, argName: "package" })),
      },
    ],
    reads: files,
    consumed: packages,
  };
}
