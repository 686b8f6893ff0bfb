/**
 * Service managers (SERVICE_CONTROL, each service a TOOL_ARG atom named "service") and the other
 * system-administration commands: accounts, firewall, kernel settings, mounts, processes.
 */
import { parseArgs } from "../options";
import type { Word } from "../tokenize";
import { effect, type CommandResult, type Handler } from "../types";

const SYSTEMCTL_READ = new Set(
  "status show cat is-active is-enabled is-failed is-system-running list-units list-unit-files list-timers list-sockets list-dependencies list-jobs list-machines get-default help show-environment".split(
    " ",
  ),
);

function control(services: Word[], consumed: Word[] = []): CommandResult {
  return {
    findings: [
      { effect: "SERVICE_CONTROL", rule: "shell.service", args: services.map((word) => ({ word, argName: "service" })) },
    ],
    consumed: [...consumed, ...services],
  };
}

export const systemctl: Handler = (c) => {
  const p = parseArgs(c.args, {
    short: "tpsnHMo",
    long: ["type", "state", "property", "signal", "lines", "host", "machine", "output", "root", "kill-whom", "job-mode"],
  });
  const verb = p.operands[0];
  if (!verb || SYSTEMCTL_READ.has(verb.value)) return { findings: [], consumed: p.operands };
  return control(p.operands.slice(1), [verb]);
};

/** `service nginx restart`, `/etc/init.d/nginx restart`, `rc-service nginx start`. */
export const service: Handler = (c) => {
  const p = parseArgs(c.args);
  const isInitScript = c.name !== "service" && c.name !== "rc-service";
  const name = isInitScript ? c.word : p.operands[0];
  const verb = isInitScript ? p.operands[0] : p.operands[1];
  if (p.opts.has("status-all") || verb?.value === "status" || verb === undefined) return { findings: [], consumed: p.operands };
  return control(name ? [name] : [], verb ? [verb] : []);
};

/** launchctl, supervisorctl, pm2, initctl: a verb, then services. */
export function verbThenServices(readVerbs: string): Handler {
  const reads = new Set(readVerbs.split(" "));
  return (c) => {
    const p = parseArgs(c.args, { stopAtOperand: true });
    const verb = p.operands[0];
    if (!verb || reads.has(verb.value)) return { findings: [], consumed: p.operands };
    return control(
      p.operands.slice(1).filter((w) => !w.value.startsWith("-")),
      [verb],
    );
  };
}

/** nginx -s reload, apachectl graceful: signals a running server (or starts one). */
export const serverSignal: Handler = (c) => {
  const v = c.args.map((w) => w.value);
  if (
    v.includes("-t") ||
    v.includes("-T") ||
    v.includes("-v") ||
    v.includes("-V") ||
    v.includes("configtest") ||
    v.includes("-S")
  ) {
    return { findings: [], consumed: c.args };
  }
  return { findings: [effect("SERVICE_CONTROL", "shell.service")], consumed: c.args };
};

export const power: Handler = (c) => ({ findings: [effect("SERVICE_CONTROL", "shell.power")], consumed: c.args });

export const accounts: Handler = (c) => ({ findings: [effect("PERMISSION_CHANGE", "shell.accounts")], consumed: c.args });

/** Firewall tools: listing is read-only, anything else changes the rules. */
export const firewall: Handler = (c) => {
  const v = c.args.map((w) => w.value);
  const listing =
    v.some((x) => /^(?:-L|-S|--list(?:-\w+)?|--list-rules|status|show|list|--state|--get-\w+|--query-\w+)$/.test(x)) ||
    v.length === 0;
  return listing
    ? { findings: [], consumed: c.args }
    : { findings: [effect("SHELL_MUTATION", "shell.firewall")], consumed: c.args };
};

export const sysctl: Handler = (c) => {
  const writes = c.args.some(
    (w) => w.value === "-w" || w.value === "--write" || w.value === "-p" || w.value === "--load" || /^[\w.]+=/.test(w.value),
  );
  return writes ? { findings: [effect("SHELL_MUTATION", "shell.kernel")], consumed: c.args } : { findings: [], consumed: c.args };
};

export const mount: Handler = (c) => {
  const p = parseArgs(c.args, { short: "tofLUT", long: ["types", "options", "label", "uuid"] });
  if (c.name === "mount" && p.operands.length === 0) return { findings: [], consumed: c.args };
  return { findings: [effect("SHELL_MUTATION", "shell.storage")], reads: p.operands };
};

export const kill: Handler = (c) => {
  if (c.args.some((w) => w.value === "-l" || w.value === "-L" || w.value === "--list")) return { findings: [], consumed: c.args };
  return { findings: [effect("SHELL_MUTATION", "shell.process")], consumed: c.args };
};

export const crontab: Handler = (c) => {
  if (c.args.some((w) => w.value === "-l")) return { findings: [], consumed: c.args };
  return { findings: [effect("SHELL_MUTATION", "shell.crontab")], reads: c.args.filter((w) => !w.value.startsWith("-")) };
};

/** ip, hostnamectl, timedatectl...: verbs such as add/del/set change state. */
export function verbMutates(pattern: RegExp, rule: string): Handler {
  return (c) =>
    c.args.some((w) => pattern.test(w.value))
      ? { findings: [effect("SHELL_MUTATION", rule)], consumed: c.args }
      : { findings: [], consumed: c.args };
}

export const date: Handler = (c) =>
  c.args.some((w) => w.value === "-s" || w.value.startsWith("--set"))
    ? { findings: [effect("SHELL_MUTATION", "shell.clock")], consumed: c.args }
    : { findings: [], consumed: c.args };

export const hostname: Handler = (c) => {
  const p = parseArgs(c.args, { short: "F", long: ["file"] });
  return p.operands.length > 0 || p.opts.has("F")
    ? { findings: [effect("SHELL_MUTATION", "shell.hostname")], consumed: c.args }
    : { findings: [], consumed: c.args };
};
