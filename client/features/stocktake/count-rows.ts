// The count rows of a session page: its lines, or, for someone counting at one location of a
// session of several ("Counting at: Back room"), the lines of that location, plus a fresh line
// for an item of the session found there though it had no stock there (scanned, or searched
// for): counting it opens that line on the server. Pure, so it works with no signal.
import { lineKey, type StocktakeLine, type StocktakePlace } from '../../../shared/stocktake';
import { filterLines } from './find-line';

/** The item's line at a place where it has none yet: nothing counted there. */
export function lineAt(line: StocktakeLine, place: StocktakePlace): StocktakeLine {
  return {
    ...line,
    locationId: place.id,
    locationName: place.name,
    status: 'uncounted',
    counted: null,
    countedAt: null,
    expected: null,
    difference: null,
    value: null,
    counts: [],
    countedBy: null,
    approvedAt: null,
    approvedBy: null,
  };
}

/**
 * The rows to show: lines matching the search, at `place` when one is chosen. There, items
 * of the session with no line at the place get one when the search finds them or they were
 * scanned (`found`: their item ids).
 */
export function countRows(
  lines: readonly StocktakeLine[],
  query: string,
  place: StocktakePlace | null,
  found: ReadonlySet<string> = new Set(),
): StocktakeLine[] {
  if (!place) return filterLines(lines, query);
  const here = lines.filter((l) => l.locationId === place.id);
  const rows = filterLines(here, query);
  const has = new Set(here.map((l) => l.itemId));
  const wanted = new Map<string, StocktakeLine>();
  const matches = query.trim() ? filterLines(lines, query) : [];
  for (const line of [...lines.filter((l) => found.has(l.itemId)), ...matches]) {
    if (!has.has(line.itemId) && !wanted.has(line.itemId)) wanted.set(line.itemId, lineAt(line, place));
  }
  return [...rows, ...wanted.values()];
}

/** The row a scan names at the chosen place: the item's line there (made fresh if it has none). */
export function scannedKey(line: StocktakeLine, place: StocktakePlace | null): string {
  return place ? lineKey({ itemId: line.itemId, locationId: place.id }) : lineKey(line);
}
