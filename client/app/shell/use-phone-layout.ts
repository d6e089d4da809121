// Whether the shell is in its phone layout (the dock as a bottom bar). The same width as the
// 760px breakpoint in shell.css: the bar's entries and its More button follow it.
import { useSyncExternalStore } from 'react';

export const PHONE_LAYOUT_QUERY = '(max-width: 760px)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE_LAYOUT_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

export function usePhoneLayout(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(PHONE_LAYOUT_QUERY).matches);
}
