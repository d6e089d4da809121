// Warm start: a signed-in user who opens the app again sees their screen without waiting
// for the Firebase SDK to download, start and ask the auth server who they are, and for
// POST /api/session after that (on a phone that chain was most of the time to the first
// data). Firebase keeps the signed-in user, with a still-valid ID token, in its own
// IndexedDB store; this reads that record directly, and with this user's last session
// grant the app renders at once and sends the token it finds. Firebase still starts right
// behind and takes over: it confirms the user (or signs out), refreshes the grant, and
// gives every token after the first ones. The server verifies every token as always; an
// expired or absent record simply means the usual cold start.
//
// The record's shape (database firebaseLocalStorageDb, store firebaseLocalStorage, key
// `firebase:authUser:<apiKey>:[DEFAULT]`, value with uid and stsTokenManager) is the
// Firebase JS SDK's persistence format, unchanged since v9. Anything unexpected in it
// reads as "no warm start".
import type { AuthUser } from '../features/auth/firebase';

const DB_NAME = 'firebaseLocalStorageDb';
const STORE = 'firebaseLocalStorage';
const USER_KEY_PREFIX = 'firebase:authUser:';
/** A token closer than this to its expiry is left to Firebase to refresh. */
const MIN_TOKEN_LIFE_MS = 5 * 60_000;

export interface WarmToken {
  user: AuthUser;
  token: string;
  expiresAt: number;
}

interface PersistedUser {
  uid?: unknown;
  email?: unknown;
  displayName?: unknown;
  isAnonymous?: unknown;
  providerData?: { providerId?: unknown }[];
  stsTokenManager?: { accessToken?: unknown; expirationTime?: unknown };
}

/** The persisted Firebase user as the app's AuthUser with its token, if still good for a while. */
export function warmTokenFrom(value: unknown, now = Date.now()): WarmToken | null {
  const user = value as PersistedUser | null;
  const token = user?.stsTokenManager?.accessToken;
  const expiresAt = user?.stsTokenManager?.expirationTime;
  if (!user || typeof user.uid !== 'string' || typeof token !== 'string' || typeof expiresAt !== 'number') return null;
  if (expiresAt - now < MIN_TOKEN_LIFE_MS) return null;
  const isAnonymous = user.isAnonymous === true;
  const provider = user.providerData?.[0]?.providerId;
  return {
    user: {
      uid: user.uid,
      email: typeof user.email === 'string' ? user.email : null,
      displayName: typeof user.displayName === 'string' ? user.displayName : null,
      isAnonymous,
      providerId: typeof provider === 'string' ? provider : isAnonymous ? 'anonymous' : 'password',
    },
    token,
    expiresAt,
  };
}

let atStart: Promise<WarmToken | null> | null = null;

let settle: () => void = () => undefined;
/**
 * Settles once the session (client/app/session.ts, in the signed-in app's chunks) has begun
 * a warm start or found none: main.tsx mounts the router after it, so the shell's first
 * render is the user's screen, not "Signing you in..." replaced a moment later.
 */
export const warmStartChecked = new Promise<void>((resolve) => {
  settle = resolve;
});
export function markWarmStartChecked(): void {
  settle();
}

/**
 * Firebase's persisted user as it was when the app started, read without loading Firebase;
 * null when there is none. Read once per page load: the router's early reads and the
 * session's warm start share it (Firebase itself takes over from there).
 */
export function readWarmToken(): Promise<WarmToken | null> {
  atStart ??= readStoredUser();
  return atStart;
}

function readStoredUser(): Promise<WarmToken | null> {
  return new Promise((resolve) => {
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(DB_NAME);
    } catch {
      resolve(null);
      return;
    }
    // No database yet: do not create an empty one under Firebase's name (Firebase would
    // find it without its store); abort, and the open fails.
    request.onupgradeneeded = () => request.transaction?.abort();
    request.onerror = () => resolve(null);
    request.onblocked = () => resolve(null);
    request.onsuccess = () => {
      const db = request.result;
      const done = (value: WarmToken | null) => {
        db.close();
        resolve(value);
      };
      if (!db.objectStoreNames.contains(STORE)) return done(null);
      try {
        const all = db.transaction(STORE, 'readonly').objectStore(STORE).getAll();
        all.onerror = () => done(null);
        all.onsuccess = () => {
          const records = all.result as { fbase_key?: unknown; value?: unknown }[];
          const record = records.find(
            (r) => typeof r.fbase_key === 'string' && r.fbase_key.startsWith(USER_KEY_PREFIX),
          );
          done(record ? warmTokenFrom(record.value) : null);
        };
      } catch {
        done(null);
      }
    };
  });
}
