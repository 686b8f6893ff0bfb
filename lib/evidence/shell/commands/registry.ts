/**
 * Command name -> what it does. A command that is not here and not in READ_ONLY is not known to
 * be read-only: it counts as a mutation ("shell.unknown-command").
 */
import { effect, type Handler } from "../types";
import { AGENT_COMMANDS, agentCommand } from "./agent-cli";
import { docker, dockerCompose, infraTool, kubectl } from "./containers";
import { mongosh, mysql, psql, redisCli, sqlite3 } from "./db";
import * as files from "./files";
import { SHELLS, applyPatch, evalCmd, formatter, python, runsCode, shell } from "./interpreters";
import { cloud, curl, gh, httpie, networkTool, ssh, wget } from "./network";
import { isPackageManager, packageManager } from "./packages";
import { READERS } from "./readers";
import * as svc from "./services";
import { git } from "./vcs";
import { own } from "../../own";

/** Other read-only commands: an operand is a path only if it looks like one. */
const readOnly: Handler = () => ({ findings: [] });

const cd: Handler = (c) => {
  const dir = c.args.find((w) => !w.value.startsWith("-") || w.value === "-");
  // Only a literal directory moves us; "cd -" or "cd $X" leaves the known cwd unknown-safe.
  if (dir && !dir.value.includes("$") && dir.value !== "-") c.chdir(dir.value);
  else if (!dir) c.chdir("~");
  return { findings: [], reads: dir ? [dir] : [] };
};

const xargs: Handler = (c) => {
  let i = 0;
  while (i < c.args.length && c.args[i]!.value.startsWith("-")) {
    const v = c.args[i]!.value;
    i += /^-[nILPdsaE]$|^--(?:max-args|replace|max-lines|max-procs|delimiter|arg-file|eof)$/.test(v) ? 2 : 1;
  }
  const words = c.args.slice(i);
  return words.length === 0 ? { findings: [] } : c.sub(words);
};

/** watch, time, timeout: run the rest as a command. */
const runsRest: Handler = (c) => {
  let i = 0;
  while (i < c.args.length && c.args[i]!.value.startsWith("-")) i += /^-[ns]$/.test(c.args[i]!.value) ? 2 : 1;
  const words = c.args.slice(i);
  return words.length === 0 ? { findings: [] } : c.sub(words);
};

const echo: Handler = (c) => ({ findings: [], consumed: c.args });

/** `command -v docker` looks a program up; `command docker ...` is unwrapped before this. */
const commandLookup: Handler = (c) => ({ findings: [], consumed: c.args });

/**
 * Issue trackers' command-line clients: reading an issue (show, view, list...) changes nothing;
 * any other verb (create, update, close, comment, sync...) is not known to be read-only. The verb
 * is the first operand, or the second after a noun ("jira issue view").
 */
function issueTracker(reads: string, nouns = ""): Handler {
  const read = new Set(reads.split(" "));
  const noun = new Set(nouns.split(" ").filter(Boolean));
  return (c) => {
    const ops = c.args.filter((w) => !w.value.startsWith("-")).map((w) => w.value);
    const verb = ops[0] !== undefined && noun.has(ops[0]) ? ops[1] : ops[0];
    return verb !== undefined && read.has(verb) ? { findings: [], consumed: c.args } : unknownCommand(c);
  };
}

/**
 * make -n/--dry-run/--just-print/--recon prints the recipes without running them, and -q/--question
 * only answers whether targets are up to date. (A recipe line marked "+" still runs under -n; such
 * lines are rare and are taken as the Makefile's own business.) Anything else runs the recipes.
 */
const MAKE_DRY = /^(?:--dry-run|--just-print|--recon|--question|-[BbdeikLprRsStvw]*[nq][BbdeikLprRsStvw]*)$/;
const make: Handler = (c) => (c.args.some((w) => MAKE_DRY.test(w.value)) ? { findings: [], consumed: c.args } : runsCode(c));

/** Packet tools read a capture file or the wire; only -w writes (a capture file). */
const packetTool: Handler = (c) => {
  const w = c.args.findIndex((a) => a.value === "-w");
  if (w < 0) return { findings: [], consumed: c.args };
  const target = c.args[w + 1];
  return { findings: [effect("FILE_WRITE", "shell.file-write", target ? [target] : undefined)] };
};

const table: Record<string, Handler> = {
  echo,
  printf: echo,
  command: commandLookup,
  cd,
  pushd: cd,
  rm: files.rm,
  rmdir: files.rm,
  unlink: files.rm,
  shred: files.rm,
  srm: files.rm,
  mv: files.mv,
  cp: files.cp,
  install: files.install,
  rsync: files.rsync,
  scp: files.scp,
  ln: files.ln,
  touch: files.touch,
  mkdir: files.mkdir,
  mkfifo: files.mkdir,
  mknod: files.mkdir,
  truncate: files.truncate,
  tee: files.tee,
  mktemp: files.mktemp,
  dd: files.dd,
  chmod: files.permissions,
  chown: files.permissions,
  chgrp: files.permissions,
  setfacl: files.aclLike,
  chattr: files.aclLike,
  sed: files.sed,
  gsed: files.sed,
  perl: files.perl,
  awk: files.awk,
  gawk: files.awk,
  mawk: files.awk,
  nawk: files.awk,
  sort: files.sort,
  uniq: files.uniq,
  find: files.find,
  tar: files.tar,
  unzip: files.unzip,
  zip: files.zip,
  gzip: files.compressor,
  gunzip: files.compressor,
  bzip2: files.compressor,
  bunzip2: files.compressor,
  xz: files.compressor,
  unxz: files.compressor,
  zstd: files.compressor,
  unzstd: files.compressor,
  patch: files.patch,
  vi: files.editor,
  vim: files.editor,
  nvim: files.editor,
  nano: files.editor,
  emacs: files.editor,
  code: files.editor,
  subl: files.editor,
  git,
  systemctl: svc.systemctl,
  service: svc.service,
  "rc-service": svc.service,
  launchctl: svc.verbThenServices("list print print-disabled help version"),
  supervisorctl: svc.verbThenServices("status avail help version pid tail fg maintail"),
  pm2: svc.verbThenServices("list ls l status jlist prettylist logs show describe info monit env"),
  initctl: svc.verbThenServices("list status show-config version"),
  nginx: svc.serverSignal,
  apachectl: svc.serverSignal,
  apache2ctl: svc.serverSignal,
  httpd: svc.serverSignal,
  reboot: svc.power,
  shutdown: svc.power,
  poweroff: svc.power,
  halt: svc.power,
  telinit: svc.power,
  useradd: svc.accounts,
  userdel: svc.accounts,
  usermod: svc.accounts,
  adduser: svc.accounts,
  deluser: svc.accounts,
  groupadd: svc.accounts,
  groupdel: svc.accounts,
  groupmod: svc.accounts,
  gpasswd: svc.accounts,
  passwd: svc.accounts,
  chpasswd: svc.accounts,
  chsh: svc.accounts,
  visudo: svc.accounts,
  iptables: svc.firewall,
  ip6tables: svc.firewall,
  nft: svc.firewall,
  ufw: svc.firewall,
  "firewall-cmd": svc.firewall,
  sysctl: svc.sysctl,
  mount: svc.mount,
  umount: svc.mount,
  swapon: svc.mount,
  swapoff: svc.mount,
  fdisk: svc.mount,
  parted: svc.mount,
  losetup: svc.mount,
  modprobe: svc.mount,
  insmod: svc.mount,
  rmmod: svc.mount,
  kill: svc.kill,
  pkill: svc.kill,
  killall: svc.kill,
  crontab: svc.crontab,
  ip: svc.verbMutates(/^(?:add|del|delete|set|flush|change|replace|append|up|down)$/, "shell.network-config"),
  hostnamectl: svc.verbMutates(/^set-/, "shell.hostname"),
  timedatectl: svc.verbMutates(/^set-/, "shell.clock"),
  localectl: svc.verbMutates(/^set-/, "shell.locale"),
  date: svc.date,
  hostname: svc.hostname,
  curl: curl,
  wget: wget,
  http: httpie,
  https: httpie,
  xh: httpie,
  gh: gh,
  aws: cloud,
  gcloud: cloud,
  gsutil: cloud,
  az: cloud,
  doctl: cloud,
  ssh: ssh,
  nc: networkTool("shell.network"),
  ncat: networkTool("shell.network"),
  telnet: networkTool("shell.network"),
  ftp: networkTool("shell.network"),
  sftp: networkTool("shell.network"),
  psql: psql,
  mysql: mysql,
  mariadb: mysql,
  sqlite3: sqlite3,
  sqlite: sqlite3,
  mongosh: mongosh,
  mongo: mongosh,
  "redis-cli": redisCli,
  docker: docker,
  podman: docker,
  nerdctl: docker,
  "docker-compose": dockerCompose,
  kubectl: kubectl,
  oc: kubectl,
  helm: infraTool("list ls status get history show inspect search template lint version env"),
  terraform: infraTool("plan show validate output providers graph console version fmt"),
  tofu: infraTool("plan show validate output providers graph console version fmt"),
  pulumi: infraTool("preview stack whoami version about logs"),
  "ansible-playbook": infraTool(""),
  eval: evalCmd,
  source: runsCode,
  ".": runsCode,
  python: python(packageManager),
  python3: python(packageManager),
  "python3.11": python(packageManager),
  "python3.12": python(packageManager),
  pip: packageManager,
  pip3: packageManager,
  node: runsCode,
  deno: runsCode,
  ruby: runsCode,
  php: runsCode,
  java: runsCode,
  make,
  gmake: make,
  tshark: packetTool,
  tcpdump: packetTool,
  // beads (bd), and the Jira and GitLab command-line clients.
  bd: issueTracker("show ready list search stats blocked status count info version help"),
  jira: issueTracker("view list ls show me serverinfo version help", "issue issues sprint epic project board"),
  glab: issueTracker("view list diff status", "issue mr ci"),
  cmake: runsCode,
  ninja: runsCode,
  gradle: runsCode,
  gradlew: runsCode,
  mvn: runsCode,
  pytest: runsCode,
  tox: runsCode,
  nox: runsCode,
  jest: runsCode,
  vitest: runsCode,
  mocha: runsCode,
  npx: runsCode,
  pnpx: runsCode,
  bunx: runsCode,
  tsx: runsCode,
  "ts-node": runsCode,
  rustc: runsCode,
  gcc: runsCode,
  "g++": runsCode,
  clang: runsCode,
  javac: runsCode,
  tsc: (c) => (c.args.some((w) => w.value === "--noEmit" || w.value === "--version") ? { findings: [] } : runsCode(c)),
  prettier: formatter(/^(?:--write|-w)$/),
  eslint: formatter(/^--fix(?:-dry-run)?$/),
  black: formatter(/^$/, true),
  ruff: (c) => (c.args[0]?.value === "format" ? formatter(/^$/, true)(c) : formatter(/^--fix$/)(c)),
  gofmt: formatter(/^-w$/),
  rustfmt: formatter(/^$/, true),
  "clang-format": formatter(/^-i$/),
  isort: formatter(/^$/, true),
  apply_patch: applyPatch,
  applypatch: applyPatch,
  xargs,
  watch: runsRest,
  nohup: runsRest,
  time: runsRest,
  open: runsCode,
  "xdg-open": runsCode,
};
for (const s of SHELLS) table[s] = shell;

export function handlerFor(name: string, agentCommands: boolean): Handler | null {
  if (agentCommands && AGENT_COMMANDS.has(name)) return agentCommand;
  const h = own(table, name) ?? own(READERS, name);
  if (h) return h;
  if (isPackageManager(name)) return packageManager;
  if (files.READ_ONLY.has(name)) return readOnly;
  return null;
}

export const unknownCommand: Handler = () => ({ findings: [effect("SHELL_MUTATION", "shell.unknown-command")] });
