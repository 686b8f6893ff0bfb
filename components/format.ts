/** "2026-12-02 11:20 UTC": one unambiguous format for every time the dashboard shows. */
export function formatTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "narrative", "side-effecting", "reclaimed honest": enum values as people read them. */
export function humanize(value: string): string {
  return value.toLowerCase().replace(/_/g, value.startsWith("SIDE") ? "-" : " ");
}

/** "28,963": counts with thousands separators, the same on every machine. */
export function formatCount(n: number): string {
  return n.toLocaleString("en");
}
