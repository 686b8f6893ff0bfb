/**
 * Postgres COPY in text format: the fastest way to load rows (ingest on Postgres, the scale data
 * set). Values are escaped here; the caller hands over whole lines.
 */
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

const NULL = "\\N";
const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPED: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/** One text-format field: backslash, tab, newline and carriage return escaped; null as \N. */
export function field(value: string | number | boolean | Date | null | undefined): string {
  if (value === null || value === undefined) return NULL;
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "t" : "f";
  if (value instanceof Date) return value.toISOString();
  // Most values hold none of the four: one scan to find out, one pass to escape when they do.
  return SPECIAL.test(value) ? value.replace(SPECIALS, (c) => ESCAPED[c]!) : value;
}

/** A bytea field in hex form (the backslash itself escaped for the text format). */
export function byteaField(bytes: Uint8Array | null): string {
  if (bytes === null) return NULL;
  return `\\\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`;
}

export function line(fields: string[]): string {
  return `${fields.join("\t")}\n`;
}

/** Streams prepared lines into `copy <table> (<columns>) from stdin` and waits for Postgres to take them. */
export async function copyLines(client: pg.ClientBase, table: string, columns: readonly string[], text: string): Promise<void> {
  if (text.length === 0) return;
  const stream = client.query(copyFrom(`copy ${table} (${columns.join(", ")}) from stdin`));
  await new Promise<void>((resolve, reject) => {
    stream.on("finish", () => resolve());
    stream.on("error", reject);
    stream.end(text);
  });
}
