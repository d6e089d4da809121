// Client entry: applies the theme, mounts the router. Everything past the landing page
// (Firebase, XState, the signed-in app) arrives in lazy chunks.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/tokens.css';
import './styles/base.css';
import './styles/components.css';
import { initTheme } from './lib/theme';
import { App } from './app/app';

initTheme();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
