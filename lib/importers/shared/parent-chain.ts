/**
 * Facts a span inherits from its ancestors (a conversation id, "below a model call"), resolved once
 * per span. Asking each span's ancestors anew costs the sum of all chain lengths: a trace of N spans
 * each the parent of the next took N²/2 steps (10,000 chained spans, minutes of a blocked server).
 * Here each item is resolved after its parent, from the parent's value, so the whole set costs one
 * visit per item however deep the chains go; the walk is a loop over an explicit stack, never
 * recursion, so no chain depth can overflow the call stack.
 *
 * A loop of parent ids (hostile or broken input: A's parent is B, B's parent is A) is cut where the
 * walk first meets it: the item whose parent closes the loop is resolved as a root.
 */
export interface ParentChain<T, V> {
  /** Each item's value: `resolve(item, its parent's value)`. */
  values: Map<T, V>;
  /** Items resolved: every item once (the measure of the work, whatever the shape of the tree). */
  visits: number;
}

export function resolveAlongParents<T, V>(
  items: Iterable<T>,
  parentOf: (item: T) => T | undefined,
  /** `above`: the parent's value; "root" when parentOf gives none; "loop" for the item cut from a loop. */
  resolve: (item: T, above: { value: V } | "root" | "loop") => V,
): ParentChain<T, V> {
  const values = new Map<T, V>();
  const onPath = new Set<T>();
  let visits = 0;
  for (const item of items) {
    if (values.has(item)) continue;
    // Climb to the first resolved ancestor (or a root, or the loop's closing item)...
    const path: T[] = [];
    let at: T | undefined = item;
    let rootCut = false;
    while (at !== undefined && !values.has(at)) {
      path.push(at);
      onPath.add(at);
      const parent: T | undefined = parentOf(at);
      if (parent !== undefined && onPath.has(parent)) {
        rootCut = true;
        break;
      }
      at = parent;
    }
    // ...then come back down, each item from its parent's value.
    for (let i = path.length - 1; i >= 0; i--) {
      const node = path[i]!;
      const parent = rootCut && i === path.length - 1 ? undefined : parentOf(node);
      const above =
        parent === undefined ? (rootCut && i === path.length - 1 ? "loop" : "root") : { value: values.get(parent) as V };
      values.set(node, resolve(node, above));
      visits++;
    }
    for (const node of path) onPath.delete(node);
  }
  return { values, visits };
}
