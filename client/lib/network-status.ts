// Whether the server answers, as the app's own requests tell. The
// header's badge said Online for up to a minute after the network went: the browser's
// offline event does not fire for every loss (a Wi-Fi with no way out, a server out of
// reach), and an open WebSocket notices only when its pings go unanswered. A request that
// failed for want of network (fetch threw, api-client.ts) marks the server unreachable at
// once; anything the server says (an API answer, a feed message, realtime.ts) marks it
// reachable again.

let unreachable = false;
const listeners = new Set<() => void>();

function set(value: boolean): void {
  if (unreachable === value) return;
  unreachable = value;
  for (const listener of listeners) listener();
}

/** A request got no answer at all (not an error status: those are answers). */
export function noteRequestFailed(): void {
  set(true);
}

/** The server said something: it is reachable. */
export function noteServerAnswered(): void {
  set(false);
}

/** True from a request that got no answer until the server is heard from again. */
export function serverUnreachable(): boolean {
  return unreachable;
}

/** Calls `listener` when serverUnreachable changes; returns the unsubscribe (useSyncExternalStore's shape). */
export function onReachabilityChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
