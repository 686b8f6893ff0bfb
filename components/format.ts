/** "2026-12-02 11:20 UTC": one unambiguous format for every time the dashboard shows. */
export function formatTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "narrative", "side-effecting", "reclaimed honest": enum values as people read them. */
export function humanize(value: string): string {
  return value.toLowerCase().replace(/_/g, value.startsWith("SIDE") ? "-" : " ");
}

/**
 * A provenance status in words, as the grid's columns name it: NONE is "no pointer" (a summary
 * replaced the span without pointing to its original), never the bare "none".
 */
export function provenanceWords(status: string): string {
  return status === "NONE" ? "no pointer" : status.toLowerCase();
}

/** "28,963": counts with thousands separators, the same on every machine. */
export function formatCount(n: number): string {
  return n.toLocaleString("en");
}

/** "1 span", "0 spans", "28,963 spans": a count with its noun, singular only for one. */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(n)} ${n === 1 ? noun : plural}`;
}

/** "1 span checked in 1 session", "28,963 spans checked in 4 sessions": an evidence answer's tally. */
export function checkedTally(spans: number, sessions: number): string {
  return `${countOf(spans, "span")} checked in ${countOf(sessions, "session")}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * "Dec 6", or "Jan 3 2027" in a year other than `year` (the year the page is about, by default the
 * date's own): a UTC day short enough for a table cell or a chart tick, where a full timestamp wraps.
 * Takes a Date or an ISO date or time ("2026-12-06", "2026-12-06T10:00:00.000Z").
 */
export function formatDay(value: Date | string, year?: number): string {
  const date = typeof value === "string" ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value) : value;
  const own = date.getUTCFullYear();
  const day = `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}`;
  return year === undefined || own === year ? day : `${day} ${own}`;
}

/** "Dec 6 14:03": a UTC day and minute for a list's time column ("Jan 3 2027 14:03" outside `year`). */
export function formatDayTime(date: Date, year?: number): string {
  return `${formatDay(date, year)} ${date.toISOString().slice(11, 16)}`;
}

/** "Yes", "No", "Insufficient evidence": an evidence answer in words. */
export function answerLabel(answer: string): string {
  const words = humanize(answer);
  return words.charAt(0).toUpperCase() + words.slice(1);
}
