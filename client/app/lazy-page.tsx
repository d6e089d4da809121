// Route-level code splitting: a page module loaded on first visit, with the truck loading
// screen while it arrives. A chunk that fails to load (a deploy replaced it) reloads once.
// A module already loaded (preloadPage, for the first screen) renders at once: suspending
// on it anyway would show the fallback and hold the page back (React reveals suspended
// content in batches, up to 300 ms apart).
import { lazy, Suspense, useState, type ComponentType, type ReactElement } from 'react';
import { TruckLoader } from '../components/truck-loader';

const RELOAD_KEY = 'stockroom.chunkReload';

type PageModule = Record<string, ComponentType>;
type Loader = () => Promise<PageModule>;

const loaded = new WeakMap<Loader, PageModule>();

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

function loadPage(load: Loader): Promise<PageModule> {
  return withReload(load)().then((module) => {
    loaded.set(load, module);
    return module;
  });
}

/**
 * Starts loading a page module now, so its route renders without waiting when it comes.
 * Resolves when it has arrived or failed: a failure is the route's to report (it reloads
 * once), so the preload stays quiet.
 */
export function preloadPage(load: Loader): Promise<void> {
  return loadPage(load).then(
    () => undefined,
    () => undefined,
  );
}

export function lazyPage<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
  fallback: ReactElement = <TruckLoader />,
): ReactElement {
  const loader = load as Loader;
  const Lazy = lazy(() => loadPage(loader).then((module) => ({ default: module[name] as ComponentType<object> })));
  function Page() {
    // Chosen once per mount: switching from Lazy to the component itself would remount the page.
    const [Loaded] = useState(() => loaded.get(loader)?.[name] ?? null);
    return Loaded ? <Loaded /> : <Lazy />;
  }
  return (
    <Suspense fallback={fallback}>
      <Page />
    </Suspense>
  );
}
