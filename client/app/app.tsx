// The app root: the router and the toast viewport, which every screen shares.
import { RouterProvider } from 'react-router-dom';
import { ToastViewport } from '../components/toast-viewport';
import { router } from './router';

export function App() {
  return (
    <>
      <RouterProvider router={router} />
      <ToastViewport />
    </>
  );
}
