/**
 * Identifiers: uuids, commit shas and content hashes (hex runs with both a digit and a letter,
 * 7-40 characters for commit shas, 64 and 128 for sha256/sha512), ticket ids ("JIRA-123",
 * "GH-12", "#45", CVE ids). Normalised lower-case; "#45" keeps its hash.
 */

/** Uppercase prefixes that look like ticket keys but name standards, encodings or models. */
const TICKET_STOPLIST = new Set(
  (
    "UTF ISO SHA MD RFC AES RSA DSA ECDSA TLS SSL HTTP HTTPS IPV IP TCP UDP MP COVID GPT CLAUDE LLAMA GEMINI " +
    "PEP X Y Z A B C D E F Q V W H UTC GMT PST PDT EST EDT CET CEST CVSS WIN EC DDR PCI USB HDMI RS FIPS NIST " +
    "BASE CRC ES ECMA ANSI ASCII IEEE ISBN SAE PHASE STEP PART TASK LEVEL TIER"
  ).split(" "),
);

export function plausibleTicket(text: string): boolean {
  if (text.startsWith("CVE-")) return true;
  const dash = text.indexOf("-");
  return !TICKET_STOPLIST.has(text.slice(0, dash));
}

/** Hex runs: commit shas (7-40), sha256 (64), sha512 (128). Other lengths are noise. */
export function plausibleHex(text: string): boolean {
  const n = text.length;
  return (n >= 7 && n <= 40) || n === 64 || n === 128;
}

export function normalizeIdentifier(text: string): string {
  return text.toLowerCase();
}
