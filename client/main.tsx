// Client entry: applies the theme, mounts the router. Everything past the landing page
// (Firebase, XState, the signed-in app) arrives in lazy chunks.
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/tokens.css';
import './styles/base.css';
import './styles/components.css';
import { initTheme } from './lib/theme';
import { App } from './app/app';

initTheme();

// The first render is a transition, so React renders it in slices and yields to the browser
// between them: on a slow phone one long task would hold the main thread for the whole tree
// (Lighthouse's Total Blocking Time).
const root = createRoot(document.getElementById('root')!);
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
