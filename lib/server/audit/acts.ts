import type { AuditAct } from "./write";

/**
 * Every act the log records, in words. Keyed by the typed union of write.ts, so an act added
 * there does not compile until it has its words here (words for an act the union no longer
 * lists are allowed: old rows still carry it).
 */
const ACT_WORDS: Record<AuditAct, string> & Record<string, string> = {
  "original.pin": "Pinned original",
  "original.unpin": "Unpinned original",
  "original.extend": "Extended original's expiry",
  "original.shorten": "Shortened original's expiry",
  "originals.pin": "Pinned originals in bulk",
  "originals.extend": "Extended originals in bulk",
  "original.sweep": "Deleted expired original",
  "original.hash_mismatch": "Found original damaged",
  "policy.update": "Changed retention policy",
  "policy.rollback": "Rolled back retention policy",
  "api_key.create": "Created API key",
  "api_key.revoke": "Revoked API key",
  "user.invite": "Invited person",
  "user.role": "Changed person's role",
  "user.password": "Changed person's password",
  "user.sessions_end": "Signed out everywhere else",
  "project.create": "Created project",
  "member.add": "Added member",
  "member.role": "Changed member's role",
  "member.remove": "Removed member",
  "question.save": "Saved evidence question",
  "question.delete": "Deleted evidence question",
  "evidence.export": "Exported evidence answer",
  "audit.export": "Exported audit log",
  "reclamation.commit": "Committed compaction",
};

export const KNOWN_ACTS = Object.keys(ACT_WORDS) as AuditAct[];

/** "Pinned original" for original.pin; a code the log holds but this build does not know reads as itself. */
export function actInWords(act: string): string {
  if (Object.hasOwn(ACT_WORDS, act)) return ACT_WORDS[act]!;
  const words = act.replace(/[._]/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : act;
}

/** "person", "API key", "system": who did it, in words. */
export function actorTypeInWords(type: string): string {
  if (type === "USER") return "person";
  if (type === "API_KEY") return "API key";
  if (type === "SYSTEM") return "system";
  return type.toLowerCase();
}
