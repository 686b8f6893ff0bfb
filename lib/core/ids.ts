const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else cannot name a resource (and must not reach Postgres as a cast error). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
