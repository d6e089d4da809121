// The app root: the router and the toast viewport, which every screen shares. It tells
// first-data.ts when the first screen is committed (see firstScreenCommitted).
import { useEffect } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { firstScreenCommitted } from '../lib/first-data';
import { ToastViewport } from '../components/toast-viewport';
import { AppRoutes } from './router';

export function App() {
  useEffect(firstScreenCommitted, []);
  return (
    <>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <ToastViewport />
    </>
  );
}
