// The first screen's reads, started early: for a returning user (warm start, see
// client/app/warm-start.ts) the router asks for the first screen's data as soon as the app
// runs, beside the page's own code instead of after it (on a phone that saved a round trip
// or two before anything useful showed). The API client takes each answer once, for the
// same GET path; anything else (no early read, a failed or refused one) is asked the usual
// way, with the app's own token, so an early read can only save time, never change an answer.
const early = new Map<string, Promise<Response | null>>();
/** Early reads started and not yet answered to the API client. */
let unsettled = 0;
const onSettled = new Set<() => void>();

function settleOne(): void {
  unsettled -= 1;
  if (unsettled > 0) return;
  for (const done of onSettled) done();
  onSettled.clear();
}

/**
 * Resolves once every early read was taken by the page and answered (at once when none was
 * started). The session holds Firebase back until then, so the SDK's download does not
 * compete with the first screen on a slow line.
 */
export function earlyReadsSettled(): Promise<void> {
  return unsettled === 0 ? Promise.resolve() : new Promise((resolve) => onSettled.add(resolve));
}

/** Starts a GET of `path` (under /api) now, to be taken by the API client's first ask for it. */
export function readEarly(path: string, token: Promise<string | null>): void {
  unsettled += 1;
  early.set(
    path,
    token
      .then((t) => (t ? fetch(`/api${path}`, { headers: { accept: 'application/json', authorization: `Bearer ${t}` } }) : null))
      .catch(() => null),
  );
}

/** The early answer for `path` if one was started and came back OK (taken once). */
export async function takeEarly(path: string): Promise<Response | null> {
  const pending = early.get(path);
  if (!pending) return null;
  early.delete(path);
  try {
    const res = await pending;
    return res?.ok ? res : null;
  } finally {
    // After this microtask the API client parses the answer and the page renders it.
    setTimeout(settleOne, 0);
  }
}
