// Bundle budgets, measured on a production build: the JavaScript a browser must download
// to show the landing page (at most 120 KB gzipped, and never Firebase or XState), and to
// show the signed-in shell with its first screen (at most 250 KB gzipped). Each is the
// entry chunk plus the route chunks involved, with everything they import statically.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { readBuildManifest, staticClosure, type BuildManifest } from '../helpers/build-manifest.js';
import { buildClientForTests } from '../helpers/e2e-build.js';

const KB = 1024;
const LANDING_BUDGET = 120 * KB;
const SHELL_BUDGET = 250 * KB;

describe('bundle size', () => {
  let dir: string;
  let manifest: BuildManifest;

  beforeAll(async () => {
    dir = await buildClientForTests();
    manifest = readBuildManifest(dir);
  }, 180_000);

  const closure = (keys: string[]): string[] => [...staticClosure(manifest, keys)];

  const gzipSize = (files: string[]) =>
    files.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(dir, file))).length, 0);
  const source = (files: string[]) => files.map((file) => readFileSync(path.join(dir, file), 'utf8')).join('\n');
  const entryKey = () => Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;

  it('keeps the landing page under 120 KB of gzipped JS, without Firebase or XState', () => {
    const files = closure([entryKey(), 'client/app/landing-route.tsx']);
    const size = gzipSize(files);
    console.info(`landing page: ${(size / KB).toFixed(1)} KB gzipped in ${files.length} files`);
    expect(size).toBeLessThanOrEqual(LANDING_BUDGET);
    const code = source(files);
    expect(code).not.toContain('FirebaseError');
    expect(code).not.toContain('xstate.init');
  });

  it('loads a signed-in first screen in a handful of script files, not dozens', () => {
    // A phone on HTTP/1.1 fetches six files at a time, each costing a round trip: the shared
    // code of the signed-in screens is one chunk (vite.config.ts, signedInCore).
    for (const page of [
      'client/features/dashboard/pages.ts',
      'client/features/inventory/components/category-page.tsx',
    ]) {
      const files = closure([entryKey(), 'client/app/signed-in-app.tsx', page]);
      console.info(`${page}: ${files.length} script files`);
      expect(files.length, page).toBeLessThanOrEqual(8);
    }
  });

  it('keeps the signed-in shell with its first screen under 250 KB of gzipped JS', () => {
    // Firebase loads right behind the shell (lazily, so a warm start can paint first): it is
    // still part of every signed-in visit, so it counts here.
    const firebaseChunk = Object.keys(manifest).find((key) => /^_firebase-/.test(key))!;
    const shell = [entryKey(), 'client/app/signed-in-app.tsx', firebaseChunk];
    const withDashboard = closure([...shell, 'client/features/dashboard/pages.ts']);
    const withInventory = closure([
      ...shell,
      'client/features/inventory/components/inventory-page.tsx',
      'client/features/inventory/components/category-page.tsx',
    ]);
    const dashboardSize = gzipSize(withDashboard);
    const inventorySize = gzipSize(withInventory);
    console.info(
      `signed-in shell + dashboard: ${(dashboardSize / KB).toFixed(1)} KB; + inventory screens: ${(inventorySize / KB).toFixed(1)} KB`,
    );
    expect(source(withDashboard)).toContain('FirebaseError'); // the measurement covers the auth SDK
    expect(dashboardSize).toBeLessThanOrEqual(SHELL_BUDGET);
    expect(inventorySize).toBeLessThanOrEqual(SHELL_BUDGET);
  });
});
