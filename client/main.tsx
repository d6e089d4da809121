// Client entry: applies the theme, mounts the router. Everything past the landing page
// (Firebase, XState, the signed-in app) arrives in lazy chunks.
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/tokens.css';
import './styles/base.css';
import './styles/components.css';
import './styles/controls.css';
import { initTheme } from './lib/theme';
import { App } from './app/app';
import { firstScreenLoaded } from './app/router';

initTheme();

// The first render is a transition, so React renders it in slices and yields to the browser
// between them: on a slow phone one long task would hold the main thread for the whole tree
// (Lighthouse's Total Blocking Time).
// A signed-in screen's code is still on its way: the loading screen index.html carries
// (client/components/truck-scene.ts) shows meanwhile, and React's first render is the
// screen itself (see firstScreenLoaded); its first commit replaces the loading screen.
const root = createRoot(document.getElementById('root')!);
let mounted = false;
function mount(): void {
  if (mounted) return;
  mounted = true;
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}
if (firstScreenLoaded) {
  void firstScreenLoaded.then(mount);
  // Code slow to come: the router takes over (and shows the loading screen while it waits).
  setTimeout(mount, 3000);
} else {
  mount();
}
