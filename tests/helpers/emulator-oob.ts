// The Auth emulator's mailbox: the out-of-band links (email changes, password resets) it
// would have mailed, read through its REST API, and following one as its recipient would.
import { emulatorHost, emulatorProjectId } from './emulator-accounts.js';

export interface OobCode {
  email: string;
  newEmail?: string;
  oobCode: string;
  oobLink: string;
  requestType: string;
}

/** Every link the emulator has "sent" and not yet used, oldest first. */
export async function oobCodes(host = emulatorHost(), projectId = emulatorProjectId()): Promise<OobCode[]> {
  const res = await fetch(`http://${host}/emulator/v1/projects/${projectId}/oobCodes`);
  if (!res.ok) throw new Error(`emulator oobCodes: HTTP ${res.status}`);
  return ((await res.json()) as { oobCodes?: OobCode[] }).oobCodes ?? [];
}

/** The email change links that would go to `newEmail`. */
export async function emailChangeLinks(newEmail: string, host?: string, projectId?: string): Promise<OobCode[]> {
  return (await oobCodes(host, projectId)).filter(
    (c) => c.requestType === 'VERIFY_AND_CHANGE_EMAIL' && c.newEmail === newEmail.toLowerCase(),
  );
}

/** Applies a link's code, as Firebase's action page does when its recipient opens it. */
export async function followOobCode(oobCode: string, host = emulatorHost()): Promise<void> {
  const res = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:update?key=any`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ oobCode }),
  });
  if (!res.ok) throw new Error(`emulator accounts:update: ${await res.text()}`);
}

/** Asks for a password reset mail to `email`; resolves with the emulator's error name, or null when it was accepted. */
export async function requestPasswordReset(email: string, host = emulatorHost()): Promise<string | null> {
  const res = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=any`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ requestType: 'PASSWORD_RESET', email }),
  });
  if (res.ok) return null;
  return String(((await res.json()) as { error?: { message?: string } }).error?.message ?? res.status);
}
