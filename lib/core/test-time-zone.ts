/**
 * Runs `body` with the process's time zone set to `zone`, then puts the zone back. Node reads TZ at
 * each conversion, so a test can show that what it stores and reads back does not depend on the
 * zone of the process that wrote it (timestamps without time zone are UTC throughout).
 */
export async function inTimeZone<T>(zone: string, body: () => Promise<T>): Promise<T> {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    return await body();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}
