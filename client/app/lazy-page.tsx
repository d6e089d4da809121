// Route-level code splitting: a page module loaded on first visit, with the truck loading
// screen while it arrives. A chunk that fails to load (a deploy replaced it) reloads once.
import { lazy, Suspense, type ComponentType, type ReactElement } from 'react';
import { TruckLoader } from '../components/truck-loader';

const RELOAD_KEY = 'stockroom.chunkReload';

function withReload<T>(load: () => Promise<T>): () => Promise<T> {
  return () =>
    load().then(
      (module) => {
        sessionStorage.removeItem(RELOAD_KEY);
        return module;
      },
      (error) => {
        if (!sessionStorage.getItem(RELOAD_KEY)) {
          sessionStorage.setItem(RELOAD_KEY, '1');
          window.location.reload();
        }
        throw error;
      },
    );
}

export function lazyPage<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
  fallback: ReactElement = <TruckLoader />,
): ReactElement {
  const Page = lazy(() => withReload(load)().then((module) => ({ default: module[name] as ComponentType<object> })));
  return (
    <Suspense fallback={fallback}>
      <Page />
    </Suspense>
  );
}
