/**
 * For tests that hold a transaction open at a chosen moment: a promise and the call that settles
 * it (Node 20 has no Promise.withResolvers).
 */
export function signal(): { reached: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const reached = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { reached, fire };
}
