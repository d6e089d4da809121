// Which count of an item applies, and whether its counts disagree. Two counts disagree when
// they imply different differences from the stock of their own moments: "8 at 10:00" and
// "6 at 10:20" agree if 2 were sold in between, and "8" and "7" of the same moment do not.
// Pure, so the session page and the approval decide alike.

export interface CountAt {
  id: string;
  counted: number;
  countedAt: Date;
  /** The item's quantity at countedAt; null when it had none then (deleted). */
  expected: number | null;
}

export type LineReading<C extends CountAt> =
  { kind: 'uncounted' } | { kind: 'counted'; count: C } | { kind: 'conflict'; counts: C[] };

const differenceOf = (c: CountAt) => (c.expected === null ? `n${c.counted}` : `d${c.counted - c.expected}`);

export function readLine<C extends CountAt>(counts: readonly C[]): LineReading<C> {
  if (counts.length === 0) return { kind: 'uncounted' };
  if (new Set(counts.map(differenceOf)).size > 1) return { kind: 'conflict', counts: [...counts] };
  const latest = counts.reduce((a, b) => (b.countedAt.getTime() >= a.countedAt.getTime() ? b : a));
  return { kind: 'counted', count: latest };
}
