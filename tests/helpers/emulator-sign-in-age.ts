// Makes an emulator account's last sign-in older, as if the person signed in a while ago:
// every ID token the emulator mints for it afterwards (a refresh) carries that auth_time.
import type { Page } from 'playwright-core';
import { emulatorHost, emulatorProjectId } from './emulator-accounts.js';

export async function backdateSignIn(uid: string, agoMs: number): Promise<void> {
  // "Bearer owner" is the emulator's admin credential (what firebase-admin sends it).
  const res = await fetch(
    `http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/projects/${emulatorProjectId()}/accounts:update`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
      // validSince too: tokens signed in before it count as revoked, and the account's own
      // (set when it was made) would otherwise be later than the sign-in it now claims.
      body: JSON.stringify({
        localId: uid,
        lastLoginAt: String(Date.now() - agoMs),
        validSince: String(Math.floor((Date.now() - agoMs) / 1000) - 1),
      }),
    },
  );
  if (!res.ok) throw new Error(`emulator accounts:update: ${await res.text()}`);
}

/**
 * Marks the ID token the page's Firebase SDK keeps (IndexedDB) as expired, then reloads:
 * the SDK refreshes it on the next call, as it does an hour after a sign-in.
 */
export async function expireBrowserToken(page: Page): Promise<void> {
  const changed = await page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('firebaseLocalStorageDb');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('firebaseLocalStorage', 'readwrite');
          const store = tx.objectStore('firebaseLocalStorage');
          let count = 0;
          const all = store.getAll();
          all.onsuccess = () => {
            for (const row of all.result as Array<{
              fbase_key: string;
              value: { stsTokenManager?: { expirationTime: number } };
            }>) {
              if (!row.fbase_key.startsWith('firebase:authUser:') || !row.value.stsTokenManager) continue;
              row.value.stsTokenManager.expirationTime = 0;
              store.put(row);
              count++;
            }
          };
          tx.oncomplete = () => resolve(count);
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
  if (changed !== 1) throw new Error(`expected one stored Firebase user, found ${changed}`);
  await page.reload();
}
