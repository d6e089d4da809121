// The rule for an item's picture address, the same in the browser (the form says so before
// a round trip) and on the server (the API refuses it). Pictures show on every screen, wall
// displays included, so only https: a picture fetched over plain http can be read or swapped
// on the way, and an http "picture" is a tracking pixel that reports every screen that
// shows it to whoever runs that server, in the clear. (The app keeps no uploads of its own.)

export type ImageUrlCheck = { ok: true; url: string | null } | { ok: false; problem: 'not-a-url' | 'not-https' };

/** Blank is no picture (null); otherwise an absolute https URL, normalised. */
export function checkImageUrl(value: string | null | undefined): ImageUrlCheck {
  if (value === null || value === undefined || value.trim() === '') return { ok: true, url: null };
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return { ok: false, problem: 'not-a-url' };
  }
  if (url.protocol !== 'https:') return { ok: false, problem: url.protocol === 'http:' ? 'not-https' : 'not-a-url' };
  return { ok: true, url: url.toString() };
}
