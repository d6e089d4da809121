// Whether the sign-in screen offers "Continue as guest": only when the store allows guest
// sign-in (Settings > General, off by default). Hidden until the answer arrives, and when it
// cannot be had; the server refuses guests itself while the setting is off.
import { useEffect, useState } from 'react';
import { guestSignInOffered } from './firebase-lazy';

export function useGuestSignInOffered(): boolean {
  const [offered, setOffered] = useState(false);
  useEffect(() => {
    let live = true;
    guestSignInOffered().then(
      (on) => live && setOffered(on),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return offered;
}
