/**
 * Hostile values for the fuzz run: boundaries, encodings, types, sizes and nesting, and
 * structure-aware mutation of a valid body (one field replaced, removed, added or duplicated).
 */
import fc from "fast-check";

export interface Rng {
  next(): number;
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(xs: readonly T[]): T;
  arbitrary<T>(arb: fc.Arbitrary<T>): T;
}

const nested = (depth: number): unknown => {
  let v: unknown = "deep";
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { d: v };
  return v;
};

/** Values that broke, or could break, an edge: each picked as often as the others. */
export const HOSTILE_CONSTANTS: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2_147_483_647,
  2_147_483_648,
  -2_147_483_649,
  2_000_000_000,
  2_000_000_001,
  2 ** 53,
  Number.MAX_SAFE_INTEGER + 2,
  1e308,
  -1e308,
  5e-324,
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfff",
  "\ud83d\ude00",
  "\uffff",
  "\u202e",
  "9999-12-31T23:59:59Z",
  "9999-12-31T23:59:59.999Z",
  "0001-01-01T00:00:00Z",
  "0000-01-01T00:00:00Z",
  "+275760-09-13T00:00:00.000Z",
  "-000001-01-01T00:00:00Z",
  "2026-02-30T00:00:00Z",
  "2026-11-30T10:00:00+14:00",
  "1970-01-01T00:00:00Z",
  "../../etc/passwd",
  "/etc/",
  "~/",
  "~/.*",
  "%00",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "^(a+)+$",
  "(a|aa)+$",
  "(a)\\1",
  "(?=x)",
  "(?<!x)",
  "[",
  "\\",
  "(\\w{1000}){10}",
  "YQ==",
  "YQ=",
  "====",
  "a".repeat(1001),
  "é".repeat(70_000),
  "x".repeat(100_000),
  [],
  {},
  [[]],
  { __proto__: { polluted: true } },
  JSON.parse('{"__proto__": {"polluted": true}}'),
  { constructor: { prototype: {} } },
  nested(64),
  nested(65),
  nested(127),
  Array.from({ length: 1001 }, (_, i) => i),
  Array.from({ length: 10_001 }, () => "00000000-0000-0000-0000-000000000000"),
];

/** One hostile value: a constant above, or one fast-check draws (any JSON, binary strings, numbers). */
export function hostileValue(rng: Rng): unknown {
  // A copy: mutation changes values in place, and the constants serve every request.
  if (rng.chance(0.6)) return structuredClone(rng.pick(HOSTILE_CONSTANTS));
  return rng.arbitrary(
    fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.string({ unit: "binary", maxLength: 300 }),
      fc.string({ unit: "grapheme", maxLength: 50 }),
      fc.integer(),
      fc.double({ noNaN: true }),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((b) => Number(b)),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.uuid(),
    ),
  );
}

/** Paths to every value inside `value` (keys and indexes). */
function pathsOf(value: unknown, prefix: Array<string | number> = [], out: Array<Array<string | number>> = []) {
  out.push(prefix);
  if (out.length > 500) return out;
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...prefix, i], out));
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, k], out);
  return out;
}

/** A valid body changed in one to three places. */
export function mutate(template: unknown, rng: Rng): unknown {
  let value = structuredClone(template);
  // Some bodies go through unchanged, so that accepted requests reach the use cases too.
  for (let n = rng.chance(0.3) ? 0 : rng.int(1, 3); n > 0; n--) {
    const paths = pathsOf(value);
    const target = rng.pick(paths);
    if (target.length === 0) {
      if (rng.chance(0.2)) value = hostileValue(rng);
      continue;
    }
    const parent = target.slice(0, -1).reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], value) as
      | Record<string | number, unknown>
      | unknown[];
    const key = target[target.length - 1]!;
    const roll = rng.next();
    // Own properties, also for a key such as "__proto__" (plain assignment would set the prototype).
    const set = (k: string | number, v: unknown) =>
      Object.defineProperty(parent, k, { value: v, enumerable: true, writable: true, configurable: true });
    if (roll < 0.65) set(key, hostileValue(rng));
    else if (roll < 0.8) {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete (parent as Record<string, unknown>)[key];
    } else if (roll < 0.9) {
      if (Array.isArray(parent)) for (let i = rng.int(1, 50); i > 0; i--) parent.push(structuredClone(parent[Number(key)]));
      else set(`${String(key)}Extra`, hostileValue(rng));
    } else if (Array.isArray(parent)) parent.reverse();
    else set(String(key), [parent[key as string]]);
  }
  return value;
}
