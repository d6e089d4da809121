// What a user may do, as the server granted it: whether two grants agree (the session
// watch), and the last grant kept on this device for offline boot. Kept apart from the
// session so it can be tested without one.
import type { SessionBody, SessionResponse } from '../../shared/accounts';

// Whether two descriptions of what a user may do agree: the same role and the same
// permissions in any order.
export interface Grant {
  role: string;
  permissions: readonly string[];
}

export function sameGrant(a: Grant, b: Grant): boolean {
  return (
    a.role === b.role &&
    a.permissions.length === b.permissions.length &&
    a.permissions.every((p) => b.permissions.includes(p))
  );
}

// The last session grant (POST /api/session's answer) this browser got, per user, so a
// signed-in user can open the app with no network: Firebase restores the user
// from IndexedDB, and the grant says what the shell may show. It only decides what to
// render; the server checks permissions on every request it does receive. It can also let
// an online boot paint at once and refresh in the background (cachedGrant + saveGrant).

const GRANT_KEY = 'stockroom.sessionGrant';

interface StoredGrant {
  uid: string;
  session: SessionResponse;
  savedAt: number;
}

/** Keeps the grant the server just gave this user (replacing another user's). */
export function saveGrant(uid: string, session: SessionResponse, now = Date.now()): void {
  try {
    const stored: StoredGrant = { uid, session: { ...session, refreshToken: false }, savedAt: now };
    localStorage.setItem(GRANT_KEY, JSON.stringify(stored));
  } catch {
    /* storage blocked or full: only offline boot is lost */
  }
}

/** The grant saved for this user, or null (none, another user's, or unreadable). */
export function cachedGrant(uid: string): SessionResponse | null {
  try {
    const stored = JSON.parse(localStorage.getItem(GRANT_KEY) ?? 'null') as StoredGrant | null;
    return stored && stored.uid === uid && stored.session?.user ? stored.session : null;
  } catch {
    return null;
  }
}

export function forgetGrant(): void {
  try {
    localStorage.removeItem(GRANT_KEY);
  } catch {
    /* nothing to forget */
  }
}

/** A failure that means "no answer came", as opposed to an answer saying no. */
export function isNetworkFailure(error: unknown): boolean {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return true;
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 0) return true;
  // fetch rejects with a TypeError when it gets no response; Firebase says network-request-failed.
  return (
    error instanceof TypeError ||
    String((error as { code?: unknown } | null)?.code ?? '').includes('network-request-failed')
  );
}

/**
 * POST /api/session, falling back to this user's cached grant when no answer comes (offline).
 * Only a restore (empty body) falls back: a sign-up's requested role must reach the server.
 * Offline is decided before trying, so an offline boot does not wait out the API retries.
 */
export async function startSessionOrCached(
  body: SessionBody,
  uid: string | null,
  start: (body: SessionBody) => Promise<SessionResponse>,
  online = () => typeof navigator === 'undefined' || navigator.onLine !== false,
): Promise<SessionResponse> {
  const restoring = Object.keys(body).length === 0;
  const cached = restoring && uid ? cachedGrant(uid) : null;
  if (cached && !online()) return cached;
  try {
    const session = await start(body);
    if (uid) saveGrant(uid, session);
    return session;
  } catch (error) {
    if (cached && isNetworkFailure(error)) return cached;
    throw error;
  }
}
