import fc from "fast-check";
import type { Rng } from "./hostile";

/** A seeded random source (xorshift32), so a run repeats for its seed; arbitraries are sampled with seeds drawn from it. */
export function seededRng(seed: number): Rng {
  let state = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x100000000;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!,
    arbitrary: <T>(arb: fc.Arbitrary<T>) => fc.sample(arb, { seed: Math.floor(next() * 2 ** 31), numRuns: 1 })[0]!,
  };
}
