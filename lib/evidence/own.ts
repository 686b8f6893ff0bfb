/**
 * Lookups keyed by strings from span bodies ("toString" is a perfectly good command name) must
 * not reach Object.prototype.
 */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
