/**
 * HTTP clients and remote CLIs. A request that is not GET/HEAD/OPTIONS mutates something
 * elsewhere (NETWORK_MUTATION, on the URL atom); a download writes a local file (FILE_WRITE).
 */
import { optionValue, parseArgs } from "../options";
import type { Word } from "../tokenize";
import { effect, type CommandResult, type Finding, type Handler } from "../types";
import { isSinkPath } from "./files";
import { own } from "../../own";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);
const isUrl = (w: Word) => /^[a-z][a-z0-9+.-]*:\/\//i.test(w.value) || /^[\w.-]+\.[a-z]{2,}(?:[:/]|$)/i.test(w.value);

function writeTarget(word: Word, name: string, rule: string): Finding | null {
  const v = optionValue(word, name);
  if (!v || isSinkPath(v.word.value.slice(v.offset))) return null;
  const f = effect("FILE_WRITE", rule, [v.word]);
  f.targetOffsets = new Map([[v.word, v.offset]]);
  return f;
}

function mutation(method: string | null, urls: Word[]): Finding {
  return {
    effect: "NETWORK_MUTATION",
    rule: "shell.http-mutation",
    args: urls.map((word) => ({ word, argName: method ?? "url", kind: "URL" as const })),
  };
}

export const curl: Handler = (c) => {
  const p = parseArgs(c.args, {
    short: "XdFTouAebcKmwxEreDHPQCzYy",
    long: [
      "request",
      "data",
      "data-raw",
      "data-binary",
      "data-urlencode",
      "data-ascii",
      "json",
      "form",
      "form-string",
      "upload-file",
      "output",
      "user",
      "user-agent",
      "referer",
      "cookie",
      "cookie-jar",
      "config",
      "url",
      "max-time",
      "connect-timeout",
      "write-out",
      "proxy",
      "cert",
      "cacert",
      "key",
      "range",
      "continue-at",
      "retry",
      "resolve",
      "limit-rate",
      "header",
      "dump-header",
      "trace",
      "trace-ascii",
      "stderr",
      "output-dir",
      "quote",
      "oauth2-bearer",
      "time-cond",
      "max-filesize",
      "interface",
      "local-port",
      "unix-socket",
      "aws-sigv4",
      "variable",
      "expand-data",
    ],
  });
  const urls = [...p.operands.filter(isUrl), ...p.all.filter((o) => o.name === "url" && o.value).map((o) => o.value!)];
  const explicit = p.all.find((o) => (o.name === "X" || o.name === "request") && o.value);
  const ev = explicit ? optionValue(explicit.value, explicit.name) : null;
  const explicitMethod = ev ? ev.word.value.slice(ev.offset).toUpperCase() : null;
  const sendsData = p.all.some((o) => /^(?:d|data.*|json|F|form.*|T|upload-file)$/.test(o.name));
  const get = p.opts.has("G") || p.opts.has("get");
  const head = p.opts.has("I") || p.opts.has("head");
  const method =
    explicitMethod ??
    (head ? "HEAD" : sendsData && !get ? (p.opts.has("T") || p.opts.has("upload-file") ? "PUT" : "POST") : "GET");
  const findings: Finding[] = [];
  if (!SAFE_METHODS.has(method)) findings.push(mutation(method, urls));
  for (const o of p.all) {
    if (!o.value) continue;
    if (
      o.name === "o" ||
      o.name === "output" ||
      o.name === "c" ||
      o.name === "cookie-jar" ||
      o.name === "D" ||
      o.name === "dump-header" ||
      o.name === "trace" ||
      o.name === "trace-ascii" ||
      o.name === "stderr"
    ) {
      const f = writeTarget(o.value, o.name, "shell.download");
      if (f) findings.push(f);
    }
  }
  if (p.opts.has("O") || p.opts.has("remote-name") || p.opts.has("remote-name-all"))
    findings.push(effect("FILE_WRITE", "shell.download"));
  const consumed = p.all
    .filter((o) => o.value && /^(?:d|data.*|json|H|header|A|user-agent|u|user|w|write-out|X|request)$/.test(o.name))
    .map((o) => o.value!);
  return { findings, consumed: [...consumed, ...urls] };
};

export const wget: Handler = (c) => {
  const p = parseArgs(c.args, {
    short: "OoPaiUTtwQeBlADRIXnh",
    long: [
      "output-document",
      "output-file",
      "directory-prefix",
      "post-data",
      "post-file",
      "body-data",
      "body-file",
      "method",
      "header",
      "user",
      "password",
      "user-agent",
      "tries",
      "timeout",
      "wait",
      "input-file",
      "base",
      "level",
      "accept",
      "reject",
      "domains",
      "execute",
      "limit-rate",
      "quota",
      "load-cookies",
      "save-cookies",
    ],
  });
  const urls = p.operands.filter(isUrl);
  const findings: Finding[] = [];
  const m = p.all.find((o) => o.name === "method" && o.value);
  const method = m
    ? m.value!.value.replace(/^--method=/, "").toUpperCase()
    : p.all.some((o) => /^(?:post|body)-(?:data|file)$/.test(o.name))
      ? "POST"
      : "GET";
  if (!SAFE_METHODS.has(method)) findings.push(mutation(method, urls));
  const out = p.all.find((o) => (o.name === "O" || o.name === "output-document") && o.value);
  if (p.opts.has("spider")) return { findings, consumed: urls };
  if (out) {
    const f = writeTarget(out.value!, out.name, "shell.download");
    if (f) findings.push(f);
  } else {
    const prefix = p.all.find((o) => (o.name === "P" || o.name === "directory-prefix") && o.value);
    const f = prefix ? writeTarget(prefix.value!, prefix.name, "shell.download") : null;
    // Without -O, wget saves the download in the working directory.
    findings.push(f ?? effect("FILE_WRITE", "shell.download"));
  }
  for (const o of p.all) {
    if ((o.name === "o" || o.name === "output-file" || o.name === "save-cookies") && o.value) {
      const f = writeTarget(o.value, o.name, "shell.file-write");
      if (f) findings.push(f);
    }
  }
  return { findings, consumed: urls };
};

/** httpie and xh: `http POST url a=b`; data items imply POST. */
export const httpie: Handler = (c) => {
  const p = parseArgs(c.args, {
    short: "oavA",
    long: ["output", "auth", "auth-type", "session", "session-read-only", "verify", "cert", "cert-key", "timeout", "proxy"],
  });
  const ops = p.operands;
  const methodWord = ops[0] && /^[A-Z]+$/.test(ops[0].value) ? ops[0] : null;
  const url = ops[methodWord ? 1 : 0];
  const items = ops.slice(methodWord ? 2 : 1);
  const hasData = items.some((w) => /^[^=:@]+(?:=|:=|@|=@|:=@)/.test(w.value) && !/^[^=:]+:[^=]/.test(w.value));
  const method = methodWord?.value ?? (hasData ? "POST" : "GET");
  const findings: Finding[] = [];
  if (!SAFE_METHODS.has(method)) findings.push(mutation(method, url ? [url] : []));
  const out = p.all.find((o) => (o.name === "o" || o.name === "output") && o.value);
  if (out) {
    const f = writeTarget(out.value!, out.name, "shell.download");
    if (f) findings.push(f);
  } else if (p.opts.has("d") || p.opts.has("download")) findings.push(effect("FILE_WRITE", "shell.download"));
  return { findings, consumed: ops };
};

const GH_WRITES: Record<string, RegExp> = {
  pr: /^(?:create|merge|close|reopen|edit|comment|review|ready|lock|unlock)$/,
  issue: /^(?:create|close|reopen|edit|comment|delete|transfer|pin|unpin|lock|unlock|develop)$/,
  release: /^(?:create|delete|upload|edit|delete-asset)$/,
  repo: /^(?:create|delete|fork|edit|rename|archive|unarchive|sync|set-default|deploy-key)$/,
  gist: /^(?:create|edit|delete|clone)$/,
  workflow: /^(?:run|enable|disable)$/,
  run: /^(?:rerun|cancel|delete)$/,
  secret: /^(?:set|delete|remove)$/,
  variable: /^(?:set|delete)$/,
  label: /^(?:create|edit|delete|clone)$/,
  cache: /^(?:delete)$/,
};

export const gh: Handler = (c) => {
  const vals = c.args.map((w) => w.value);
  const [group, verb] = vals.filter((v) => !v.startsWith("-"));
  if (group === "api") {
    const i = vals.findIndex((v) => v === "-X" || v === "--method");
    const method =
      i >= 0
        ? (vals[i + 1] ?? "GET").toUpperCase()
        : vals.some((v) => /^(?:-f|-F|--field|--raw-field|--input)$/.test(v))
          ? "POST"
          : "GET";
    return SAFE_METHODS.has(method)
      ? { findings: [], consumed: c.args }
      : { findings: [effect("NETWORK_MUTATION", "shell.http-mutation")], consumed: c.args };
  }
  if (group === "repo" && verb === "clone") return { findings: [effect("FILE_WRITE", "shell.vcs-clone")], consumed: c.args };
  const writes = group !== undefined && verb !== undefined && own(GH_WRITES, group)?.test(verb);
  return writes
    ? { findings: [effect("NETWORK_MUTATION", "shell.forge")], consumed: c.args }
    : { findings: [], consumed: c.args };
};

/** aws, gcloud, az, gsutil: describe/list/get are reads; the rest change cloud state. */
export const cloud: Handler = (c) => {
  const ops = c.args.map((w) => w.value).filter((v) => !v.startsWith("-"));
  const reads = ops.some((v) =>
    /^(?:describe|list|get|show|ls|cat|wait|help|version|whoami|info|du|stat|logs|tail|read|search|query|lookup|check|validate|print-access-token|configure)(?:-|$)/.test(
      v,
    ),
  );
  if (reads || ops.length === 0) return { findings: [], consumed: c.args };
  return { findings: [effect("NETWORK_MUTATION", "shell.cloud")], consumed: c.args };
};

/** ssh host cmd: the command runs elsewhere and cannot be inspected from here. */
export const ssh: Handler = (c) => {
  const p = parseArgs(c.args, { short: "bcDEeFIiJLlmOopQRSWw", long: [], stopAtOperand: true });
  if (p.opts.has("G") || p.opts.has("V")) return { findings: [], consumed: c.args };
  return { findings: [effect("SHELL_MUTATION", "shell.remote")], consumed: c.args };
};

export function networkTool(rule: string): Handler {
  return (c): CommandResult => ({ findings: [effect("NETWORK_MUTATION", rule)], consumed: c.args });
}
