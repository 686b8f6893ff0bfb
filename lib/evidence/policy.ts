/**
 * Retention policy: defaults, the dates it implies, and validation (docs/design.md, "Retention").
 */
import { EVIDENTIAL_CLASSES, type EvidentialClass, type RetentionPolicy } from "./types";

/** Days are fixed 24 h spans in UTC: retention must not shift with daylight-saving changes. */
export const DAY_MS = 86_400_000;

/**
 * What counts as "system config" for the canned question (prefix syntax in path-prefix.ts): a
 * named list, not every dot-folder of a home directory (writing a plan or a cache under ~/.claude/
 * or ~/.cache/ is not configuring the system). Policy owners edit it per project.
 */
export const DEFAULT_SYSTEM_CONFIG_PREFIXES: readonly string[] = [
  // The system's own configuration, programs and libraries.
  "/etc/",
  "/usr/",
  "/boot/",
  "/lib/",
  "/lib64/",
  "/opt/",
  // Package managers' state.
  "/var/lib/dpkg/",
  "/var/lib/apt/",
  "/var/lib/rpm/",
  "/var/lib/yum/",
  "/var/lib/dnf/",
  "/var/lib/pacman/",
  // Scheduled jobs (systemd units are under /etc/ and /lib/ above).
  "/var/spool/cron/",
  "~/.config/systemd/user/",
  // Shell start-up files.
  "~/.bashrc",
  "~/.bash_profile",
  "~/.bash_login",
  "~/.bash_logout",
  "~/.profile",
  "~/.zshrc",
  "~/.zshenv",
  "~/.zprofile",
  "~/.zlogin",
  "~/.config/fish/config.fish",
  "~/.config/fish/conf.d/",
  // Credentials and identities.
  "~/.ssh/",
  "~/.gnupg/",
  "~/.netrc",
  "~/.aws/config",
  "~/.aws/credentials",
  "~/.kube/config",
  "~/.docker/config.json",
  // Tools' user-wide configuration.
  "~/.gitconfig",
  "~/.config/git/config",
  "~/.npmrc",
  "~/.pypirc",
  "~/.config/pip/pip.conf",
  "~/.pip/pip.conf",
  "~/.cargo/config.toml",
  // Agent runtimes' own settings (what the agent may do next time), not their plans or logs.
  "~/.claude/settings.json",
  "~/.claude/settings.local.json",
  "~/.claude.json",
  "~/.codex/config.toml",
  "~/.gemini/settings.json",
  "~/.aider.conf.yml",
  "~/.openhands/settings.json",
  "~/.config/openhands/settings.json",
];

/**
 * Defaults, and why:
 * - horizon 400 days: a yearly audit plus a month of slack to run it.
 * - NARRATIVE 30 days: narrative spans are reclaimable in every cell, so their originals only
 *   serve debugging and context; a month covers incident follow-up.
 * - STRUCTURED 400 days = the horizon: the least storage that keeps a structured original
 *   DURABLE (an original expiring exactly at its horizon still counts as durable), so the gate
 *   can let compactors reclaim structured spans without refusals.
 * - SIDE_EFFECTING 730 days: committed mutations are what audits and re-execution ask about
 *   most; keeping them well past the horizon means raising the horizon later does not at once
 *   push every side-effecting original into EXPIRING.
 */
export const DEFAULT_POLICY: RetentionPolicy = Object.freeze({
  evidenceHorizonDays: 400,
  ttlDays: Object.freeze({ NARRATIVE: 30, STRUCTURED: 400, SIDE_EFFECTING: 730 }),
  evidenceWorkloads: true,
  // Frozen so no caller can change the defaults for everyone; copy it to edit.
  systemConfigPrefixes: Object.freeze([...DEFAULT_SYSTEM_CONFIG_PREFIXES]) as string[],
}) as RetentionPolicy;

/** When an unpinned original of this class expires under the policy. */
export function expiresAtFor(cls: EvidentialClass, occurredAt: Date, policy: RetentionPolicy): Date {
  return new Date(occurredAt.getTime() + policy.ttlDays[cls] * DAY_MS);
}

/** Until when evidence from a span that occurred at `occurredAt` must stay answerable. */
export function horizonFor(occurredAt: Date, policy: RetentionPolicy): Date {
  return new Date(horizonMs(occurredAt.getTime(), policy));
}

/** Allocation-free form of `horizonFor`, for the gate's hot path. */
export function horizonMs(occurredAtMs: number, policy: RetentionPolicy): number {
  return occurredAtMs + policy.evidenceHorizonDays * DAY_MS;
}

export interface PolicyFieldError {
  /** Dotted path of the offending field, e.g. "ttlDays.STRUCTURED". */
  field: string;
  message: string;
}

export interface PolicyValidation {
  valid: boolean;
  errors: PolicyFieldError[];
  /** Legal but probably unintended settings, e.g. a structured TTL shorter than the horizon. */
  warnings: PolicyFieldError[];
}

/** Upper bound for day counts: a century, to catch unit mistakes (ms or seconds typed as days). */
export const MAX_POLICY_DAYS = 36_500;

/**
 * Checks an untrusted value (a form, a JSON body) field by field. Kept free of schema libraries
 * so the browser can run the same rules the server enforces.
 */
export function validatePolicy(input: unknown): PolicyValidation {
  const errors: PolicyFieldError[] = [];
  const warnings: PolicyFieldError[] = [];
  if (!isRecord(input)) {
    return { valid: false, errors: [{ field: "", message: "policy must be an object" }], warnings };
  }

  checkDays(input.evidenceHorizonDays, "evidenceHorizonDays", 1, errors);

  const ttl = input.ttlDays;
  if (!isRecord(ttl)) {
    errors.push({ field: "ttlDays", message: "must be an object with a TTL per evidential class" });
  } else {
    for (const cls of EVIDENTIAL_CLASSES) checkDays(ttl[cls], `ttlDays.${cls}`, 0, errors);
    for (const key of Object.keys(ttl)) {
      if (!(EVIDENTIAL_CLASSES as readonly string[]).includes(key)) {
        errors.push({ field: `ttlDays.${key}`, message: "unknown evidential class" });
      }
    }
  }

  if (typeof input.evidenceWorkloads !== "boolean") {
    errors.push({ field: "evidenceWorkloads", message: "must be true or false" });
  }

  checkPrefixes(input.systemConfigPrefixes, errors);

  if (errors.length === 0) addWarnings(input as unknown as RetentionPolicy, warnings);
  return { valid: errors.length === 0, errors, warnings };
}

function checkDays(v: unknown, field: string, min: number, errors: PolicyFieldError[]): void {
  if (typeof v !== "number" || !Number.isInteger(v)) {
    errors.push({ field, message: "must be a whole number of days" });
  } else if (v < min) {
    errors.push({ field, message: `must be at least ${min}` });
  } else if (v > MAX_POLICY_DAYS) {
    errors.push({ field, message: `must be at most ${MAX_POLICY_DAYS} days` });
  }
}

function checkPrefixes(v: unknown, errors: PolicyFieldError[]): void {
  const field = "systemConfigPrefixes";
  if (!Array.isArray(v)) {
    errors.push({ field, message: "must be a list of path prefixes" });
    return;
  }
  const seen = new Set<string>();
  v.forEach((p: unknown, i) => {
    const f = `${field}.${i}`;
    if (typeof p !== "string" || p.trim() === "") {
      errors.push({ field: f, message: "must be a non-empty string" });
    } else if (!p.startsWith("/") && !p.startsWith("~/")) {
      errors.push({ field: f, message: 'must be an absolute path ("/etc/") or start with "~/"' });
    } else if (p.trim() !== p) {
      errors.push({ field: f, message: "must not start or end with spaces" });
    } else if (seen.has(p)) {
      errors.push({ field: f, message: "duplicate prefix" });
    } else {
      seen.add(p);
    }
  });
}

function addWarnings(p: RetentionPolicy, warnings: PolicyFieldError[]): void {
  for (const cls of ["STRUCTURED", "SIDE_EFFECTING"] as const) {
    if (p.ttlDays[cls] < p.evidenceHorizonDays) {
      warnings.push({
        field: `ttlDays.${cls}`,
        message:
          `shorter than the evidence horizon (${p.evidenceHorizonDays} days): unpinned ${cls.toLowerCase().replace("_", "-")} ` +
          "originals will expire before their horizon and the gate will refuse to reclaim them",
      });
    }
  }
  if (!p.evidenceWorkloads) {
    warnings.push({
      field: "evidenceWorkloads",
      message: "evidence workloads are off: structured spans are reclaimed without a durable pointer",
    });
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
