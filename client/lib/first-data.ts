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

/**
 * Early answers already parsed, by path: a page's live query starts from them, so the first
 * screen renders once, with its data, instead of a loading state and then the data (each
 * render and layout on a slow phone was time before the page's largest text showed).
 */
const parsed = new Map<string, unknown>();
const parses: Promise<void>[] = [];

/** Starts a GET of `path` (under /api) now, to be taken by the API client's first ask for it. */
export function readEarly(path: string, token: Promise<string | null>): void {
  unsettled += 1;
  const pending = token
    .then((t) =>
      t ? fetch(`/api${path}`, { headers: { accept: 'application/json', authorization: `Bearer ${t}` } }) : null,
    )
    .catch(() => null);
  early.set(path, pending);
  parses.push(
    pending
      .then((res) => (res?.ok && res.status === 200 ? res.clone().json() : undefined))
      .then(
        (json: unknown) => {
          if (json !== undefined && early.get(path) === pending && !pastFirstScreen) parsed.set(path, json);
        },
        () => undefined, // not JSON: the API client reads it the usual way and says why
      ),
  );
}

/** Resolves once every early read started so far has come back and been parsed (or failed). */
export function earlyReadsParsed(): Promise<void> {
  return Promise.all(parses).then(() => undefined);
}

let markPainted: () => void = () => undefined;
const painted = new Promise<void>((resolve) => (markPainted = resolve));

/**
 * Told by the app root after its first commit (the first screen, with its data): resolves
 * `painted` once that frame is on screen. Until then reads taken by takeEarlyJson stay
 * unsettled, so what waits for the settling (the Firebase SDK's download and start) does not
 * run between the first render and its paint, on a slow phone time before the content shows.
 */
export function firstScreenCommitted(): void {
  requestAnimationFrame(() => setTimeout(markPainted, 0));
  // A tab in the background gets no animation frames.
  setTimeout(markPainted, 1000);
}
// Past the first screen every page reads for itself: no answer from before is served later.
let pastFirstScreen = false;
void painted.then(() => {
  pastFirstScreen = true;
  parsed.clear();
});

const taken = new Set<string>();

/**
 * The parsed early answers for all of `paths`, or null (nothing taken) when any of them is
 * not there: the page then loads them the usual way. Taking one again gives the same answer
 * until the first screen has painted: React may discard a first render in progress and start
 * it over, which creates the page's live query anew; a page opened later loads its own.
 * The live query reads again right after (see live-query.machine.ts), so an answer older
 * than the live feed's connection is soon replaced.
 */
export function takeEarlyJson(paths: string[]): unknown[] | null {
  if (!paths.every((path) => parsed.has(path))) return null;
  for (const path of paths) {
    if (taken.has(path)) continue;
    taken.add(path);
    early.delete(path);
    void painted.then(settleOne);
  }
  return paths.map((path) => parsed.get(path));
}

/** The early answer for `path` if one was started and came back OK (taken once). */
export async function takeEarly(path: string): Promise<Response | null> {
  const pending = early.get(path);
  if (!pending) return null;
  early.delete(path);
  parsed.delete(path);
  try {
    const res = await pending;
    return res?.ok ? res : null;
  } finally {
    // After this microtask the API client parses the answer and the page renders it.
    setTimeout(settleOne, 0);
  }
}
