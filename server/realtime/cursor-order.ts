// Orders feed cursors the way the event store reads them: by (txId, position). txId is an
// xid8 (up to 20 digits), too big for a double, so it is compared as a decimal string.
// This runs once per client per published batch, so it allocates nothing in the usual case.
import type { Cursor } from '../eventstore/types.js';

/** Negative when a comes first, 0 when equal, positive when a comes after b. */
export function compareCursors(a: Cursor, b: Cursor): number {
  if (a.txId !== b.txId) {
    const ta = canonical(a.txId);
    const tb = canonical(b.txId);
    // Canonical decimals: the longer one is bigger, else they compare as text.
    if (ta.length !== tb.length) return ta.length - tb.length;
    if (ta !== tb) return ta < tb ? -1 : 1;
  }
  return a.position - b.position;
}

/** Drops leading zeros a client may have sent ("007" is 7); the store never writes them. */
function canonical(digits: string): string {
  if (digits.length < 2 || digits.charCodeAt(0) !== 48) return digits;
  const trimmed = digits.replace(/^0+/, '');
  return trimmed === '' ? '0' : trimmed;
}
