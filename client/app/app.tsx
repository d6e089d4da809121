// The app root: the router and the toast viewport, which every screen shares.
import { BrowserRouter } from 'react-router-dom';
import { ToastViewport } from '../components/toast-viewport';
import { AppRoutes } from './router';

export function App() {
  return (
    <>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <ToastViewport />
    </>
  );
}
