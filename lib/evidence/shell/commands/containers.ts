/**
 * Containers and clusters: starting or exec'ing into a container spawns a process
 * (PROCESS_SPAWN); building, removing, applying manifests change state (SHELL_MUTATION);
 * listing and inspecting read.
 */
import { relabel, type Word } from "../tokenize";
import { effect, type CommandResult, type Handler } from "../types";

const DOCKER_SPAWN = new Set(["run", "exec", "create", "start", "restart", "up", "attach", "debug"]);
const DOCKER_READ = new Set(
  "ps images logs inspect version info stats top history port diff search events config ls df show --version help".split(" "),
);
const DOCKER_GROUPS = new Set([
  "container",
  "image",
  "network",
  "volume",
  "system",
  "compose",
  "context",
  "builder",
  "buildx",
  "plugin",
  "node",
  "service",
  "stack",
  "secret",
  "swarm",
  "trust",
  "manifest",
]);
const DOCKER_GLOBAL_WITH_VALUE = new Set([
  "-H",
  "--host",
  "-c",
  "--context",
  "--config",
  "-l",
  "--log-level",
  "-f",
  "--file",
  "-p",
  "--project-name",
  "--project-directory",
  "--env-file",
  "--profile",
]);

function verbs(
  args: Word[],
  globalsWithValue: Set<string>,
  groups: Set<string>,
): { verb: string | undefined; rest: Word[]; head: Word[] } {
  let i = 0;
  const head: Word[] = [];
  while (i < args.length && args[i]!.value.startsWith("-")) {
    head.push(args[i]!);
    if (globalsWithValue.has(args[i]!.value) && args[i + 1]) head.push(args[++i]!);
    i++;
  }
  let verb = args[i]?.value;
  if (verb !== undefined) head.push(args[i]!);
  i++;
  if (verb !== undefined && groups.has(verb)) {
    while (i < args.length && args[i]!.value.startsWith("-")) {
      head.push(args[i]!);
      if (globalsWithValue.has(args[i]!.value) && args[i + 1]) head.push(args[++i]!);
      i++;
    }
    const inner = args[i]?.value;
    if (inner !== undefined) {
      head.push(args[i]!);
      verb = inner === "ls" || inner === "list" ? "ls" : inner;
      i++;
    }
  }
  return { verb, rest: args.slice(i), head };
}

/** Host side of -v host:container and --mount source=... (read: a mount is not a write). */
function mounts(rest: Word[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < rest.length; i++) {
    const v = rest[i]!.value;
    if ((v === "-v" || v === "--volume" || v === "--mount") && rest[i + 1]) out.push(rest[++i]!);
  }
  return out;
}

export const docker: Handler = (c) => {
  const { verb, rest, head } = verbs(c.args, DOCKER_GLOBAL_WITH_VALUE, DOCKER_GROUPS);
  if (verb === undefined || DOCKER_READ.has(verb)) return { findings: [], consumed: c.args };
  const consumed = [...head, ...rest.filter((w) => !w.value.startsWith("/") && !w.value.startsWith("."))];
  if (DOCKER_SPAWN.has(verb))
    return {
      findings: [effect("PROCESS_SPAWN", "shell.container")],
      consumed: consumed.filter((w) => !mounts(rest).includes(w)),
    };
  return { findings: [effect("SHELL_MUTATION", "shell.container")], consumed };
};

/** `docker-compose up` is `docker compose up`. */
export const dockerCompose: Handler = (c) => docker(c.withArgs(c.name, [relabel(c.word, "compose"), ...c.args]));

const KUBECTL_READ = new Set(
  "get describe logs explain version top api-resources api-versions cluster-info diff wait events completion help".split(" "),
);
const KUBECTL_SPAWN = new Set(["exec", "run", "debug", "attach", "port-forward", "proxy", "cp"]);

export const kubectl: Handler = (c) => {
  const { verb, rest, head } = verbs(
    c.args,
    new Set(["-n", "--namespace", "--context", "--kubeconfig", "-s", "--server", "--cluster", "--user"]),
    new Set(),
  );
  const consumed = [...head];
  if (verb === undefined || KUBECTL_READ.has(verb)) return { findings: [], consumed: c.args };
  const first = rest.find((w) => !w.value.startsWith("-"))?.value;
  if (
    (verb === "config" && /^(?:view|get-\w+|current-context)$/.test(first ?? "")) ||
    (verb === "auth" && first === "can-i") ||
    (verb === "rollout" && (first === "status" || first === "history"))
  ) {
    return { findings: [], consumed: c.args };
  }
  const files = rest.filter((_, i) => rest[i - 1]?.value === "-f" || rest[i - 1]?.value === "--filename");
  const result: CommandResult = KUBECTL_SPAWN.has(verb)
    ? { findings: [effect("PROCESS_SPAWN", "shell.cluster")], consumed: [...consumed, ...rest] }
    : {
        findings: [effect("SHELL_MUTATION", "shell.cluster")],
        consumed: [...consumed, ...rest.filter((w) => !files.includes(w))],
        reads: files,
      };
  return result;
};

/** helm, terraform, pulumi, ansible: a list of read-only verbs, everything else changes infrastructure. */
export function infraTool(readVerbs: string): Handler {
  const reads = new Set(readVerbs.split(" "));
  return (c) => {
    const ops = c.args.filter((w) => !w.value.startsWith("-"));
    const verb = ops[0]?.value;
    const dryRun = c.args.some((w) => /^--(?:check|dry-run|diff|preview)$/.test(w.value));
    if (verb === undefined || reads.has(verb) || dryRun) return { findings: [], consumed: c.args };
    if (verb === "state" && /^(?:list|show|pull)$/.test(ops[1]?.value ?? "")) return { findings: [], consumed: c.args };
    if (verb === "repo" && ops[1]?.value === "list") return { findings: [], consumed: c.args };
    if (verb === "fmt" && c.args.some((w) => w.value === "-check")) return { findings: [], consumed: c.args };
    return { findings: [effect("SHELL_MUTATION", "shell.infrastructure")], consumed: c.args };
  };
}
