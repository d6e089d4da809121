// Structural sharing for data a screen reads again: a refetch (after the feed's first
// connection, an event elsewhere, a retry) mostly returns what the screen already holds.
// Keeping the old objects wherever the new answer is equal lets memoised components (the
// Category page's item cards) skip their render, instead of React redrawing every card on
// the main thread of a phone for an answer that changed nothing.

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** `next`, with every part deep-equal to the same part of `previous` replaced by previous's own. */
export function keepEqual<T>(previous: unknown, next: T): T {
  if (Object.is(previous, next)) return next;
  if (Array.isArray(previous) && Array.isArray(next)) {
    let same = previous.length === next.length;
    const kept = next.map((value, i) => {
      const part = keepEqual(previous[i], value);
      if (part !== previous[i]) same = false;
      return part;
    });
    return (same ? previous : kept) as T;
  }
  if (isPlainObject(previous) && isPlainObject(next)) {
    const keys = Object.keys(next);
    let same = keys.length === Object.keys(previous).length;
    const kept: Record<string, unknown> = {};
    for (const key of keys) {
      kept[key] = keepEqual(previous[key], next[key]);
      if (kept[key] !== previous[key] || !(key in previous)) same = false;
    }
    return (same ? previous : kept) as T;
  }
  return next;
}
