// How often the wall display's long lists turn to their next page. A wall can set it in its
// URL (/display?rotate=15, in seconds) to suit how far away people read it; tests use a
// short one. Out of range or unreadable values fall back to the default.
export const DEFAULT_ROTATE_SECONDS = 10;
const MIN_ROTATE_SECONDS = 1;
const MAX_ROTATE_SECONDS = 600;

export function rotationMs(search: string): number {
  const raw = new URLSearchParams(search).get('rotate');
  const seconds = raw === null || raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(seconds) || seconds < MIN_ROTATE_SECONDS || seconds > MAX_ROTATE_SECONDS)
    return DEFAULT_ROTATE_SECONDS * 1000;
  return Math.round(seconds * 1000);
}
