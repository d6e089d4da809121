// A one-bit hint in local storage that this browser was signed in when last seen. The
// landing page reads it to decide whether to load Firebase at all: a first-time visitor
// never downloads the auth SDK or the signed-in app.
const KEY = 'stockroom.signedIn';

export function wasSignedIn(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

export function rememberSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(KEY, '1');
    else localStorage.removeItem(KEY);
  } catch {
    /* storage blocked: the hint is only an optimisation */
  }
}
