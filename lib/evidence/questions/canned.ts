/**
 * The canned questions compliance reviewers ask most (issue "Evidence questions"), as data a
 * retention policy can edit. The system-config question takes its path prefixes from the policy.
 */
import { DEFAULT_POLICY } from "../policy";
import type { RetentionPolicy, SideEffectKind } from "../types";
import type { EvidencePredicate, EvidenceQuestion } from "./predicate";

export const CANNED_QUESTION_IDS = [
  "modified-system-config",
  "installed-or-removed-packages",
  "deleted-files",
  "wrote-outside-cwd",
  "network-mutations",
  "escalated-privileges",
] as const;
export type CannedQuestionId = (typeof CANNED_QUESTION_IDS)[number];

/** Mutations of a file or its metadata: what "modified", "wrote" and "changed" mean for paths. */
export const FILE_MUTATIONS: SideEffectKind[] = ["FILE_WRITE", "FILE_DELETE", "FILE_MOVE", "PERMISSION_CHANGE"];

/**
 * System package managers, also behind sudo/doas. Project-local installs (npm, pip in a venv)
 * are deliberately not system config; they still answer "installed or removed packages". RE2
 * syntax (no lookahead): the trailing group consumes the space, which a search cannot tell apart.
 */
export const SYSTEM_PACKAGE_MANAGER_PATTERN =
  "(?:^|[\\s;&|(])(?:sudo|doas|apt-get|apt|aptitude|dpkg|yum|dnf|rpm|zypper|pacman|apk|snap|flatpak|brew|port|emerge|nix-env)(?:\\s|$)";

/** Writes to these are plumbing, not files: `cmd > /dev/null` did not write outside the project. */
export const DEVICE_SINKS = ["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/"];

/** Canned questions for a policy: the system-config prefixes come from it. */
export function cannedQuestionsFor(policy: RetentionPolicy): Record<CannedQuestionId, EvidenceQuestion> {
  const systemConfig: EvidencePredicate[] = [
    { effectKinds: FILE_MUTATIONS, valuePrefixes: [...policy.systemConfigPrefixes] },
    { effectKinds: ["PACKAGE_INSTALL", "PACKAGE_REMOVE"], commandPattern: SYSTEM_PACKAGE_MANAGER_PATTERN },
    // Starting, stopping or enabling a service changes the system's configuration of what runs.
    { effectKinds: ["SERVICE_CONTROL"] },
  ];
  return {
    "modified-system-config": {
      id: "modified-system-config",
      title: "Did we modify system config?",
      description:
        "Writes, deletes, moves or permission changes under the policy's system-config prefixes, " +
        "system package-manager installs and removals, and service-manager actions.",
      anyOf: systemConfig,
    },
    "installed-or-removed-packages": {
      id: "installed-or-removed-packages",
      title: "Did we install or remove packages?",
      anyOf: [{ effectKinds: ["PACKAGE_INSTALL", "PACKAGE_REMOVE"] }],
    },
    "deleted-files": {
      id: "deleted-files",
      title: "Did we delete files?",
      anyOf: [{ effectKinds: ["FILE_DELETE"] }],
    },
    "wrote-outside-cwd": {
      id: "wrote-outside-cwd",
      title: "Did we write outside the session's working directory?",
      description: "File mutations whose path is outside the session's cwd; unknown when the cwd is.",
      anyOf: [{ effectKinds: FILE_MUTATIONS, outsideCwd: true, excludePrefixes: [...DEVICE_SINKS] }],
    },
    "network-mutations": {
      id: "network-mutations",
      title: "Did we send network mutations (POST/PUT/PATCH/DELETE, git push)?",
      description:
        "Requests that change something on another machine: HTTP POST/PUT/PATCH/DELETE and tools that " +
        "write through a remote service, and pushes to a remote repository (`git push`).",
      // A push changes the remote: leaving it out answered NO over a session that pushed.
      anyOf: [{ effectKinds: ["NETWORK_MUTATION", "VCS_PUSH"] }],
    },
    "escalated-privileges": {
      id: "escalated-privileges",
      title: "Did we escalate privileges?",
      description: "sudo and the like, and sandbox escalation requests in tool arguments.",
      anyOf: [
        { effectKinds: ["PRIVILEGE_ESCALATION"] },
        {
          atomKinds: ["TOOL_ARG"],
          argNames: ["with_escalated_permissions", "sandbox_permissions", "escalated"],
          valuePattern: "^(?:true|require_escalated|escalated)$",
          valuePatternFlags: "i",
        },
      ],
    },
  };
}

/** The canned questions under the default policy. */
export const CANNED_QUESTIONS: Readonly<Record<CannedQuestionId, EvidenceQuestion>> = cannedQuestionsFor(DEFAULT_POLICY);

/** A policy owner's edits to a canned question: a new title or new predicates. */
export type CannedQuestionOverrides = Partial<
  Record<CannedQuestionId, Partial<Pick<EvidenceQuestion, "title" | "description" | "anyOf">>>
>;

export function applyCannedOverrides(
  questions: Record<CannedQuestionId, EvidenceQuestion>,
  overrides: CannedQuestionOverrides,
): Record<CannedQuestionId, EvidenceQuestion> {
  const out = { ...questions };
  for (const id of CANNED_QUESTION_IDS) {
    const o = overrides[id];
    if (o) out[id] = { ...questions[id], ...o, id };
  }
  return out;
}

export function isCannedQuestionId(v: unknown): v is CannedQuestionId {
  return typeof v === "string" && (CANNED_QUESTION_IDS as readonly string[]).includes(v);
}
