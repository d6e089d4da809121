// The scanner and the label printer load only when used: neither they nor their heavy
// libraries (zxing-wasm and its 900 KB decoder, bwip-js) are in the JavaScript of the
// landing page or of the signed-in shell with its first screens, and the decoder is our
// own asset (no CDN). Measured on the production build's manifest, as bundle-size.test.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readBuildManifest, staticClosure, type BuildManifest } from '../helpers/build-manifest.js';
import { buildClientForTests } from '../helpers/e2e-build.js';

const LAZY = [
  'client/features/scanner/components/scanner-sheet.tsx',
  'client/features/scanner/zxing-reader.ts',
  'client/features/labels/pages.ts',
  'node_modules/bwip-js/dist/bwip-js.mjs',
];

describe('scanner and labels are loaded lazily', () => {
  let dir: string;
  let manifest: BuildManifest;

  beforeAll(async () => {
    dir = await buildClientForTests();
    manifest = readBuildManifest(dir);
  }, 180_000);

  const closure = (keys: string[]) => staticClosure(manifest, keys);

  it('keeps them out of the landing page and the signed-in shell with its first screens', () => {
    const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;
    const initial = closure([
      entry,
      'client/app/landing-route.tsx',
      'client/app/signed-in-app.tsx',
      'client/features/dashboard/pages.ts',
      'client/features/inventory/components/inventory-page.tsx',
      'client/features/inventory/components/category-page.tsx',
      'client/features/inventory/components/item-detail-page.tsx',
    ]);
    for (const name of LAZY) {
      // A package's key is relative to the client root, so it depends on where node_modules is.
      const key = Object.keys(manifest).find((k) => k === name || k.endsWith(`/${name}`)) ?? name;
      expect(manifest[key], key).toBeDefined();
      expect(initial.has(manifest[key]!.file), `${key} in the initial JavaScript`).toBe(false);
    }
    const code = [...initial].map((file) => readFileSync(path.join(dir, file), 'utf8')).join('\n');
    expect(code).not.toContain('.wasm');
    expect(code).not.toContain('bwipp');
  });

  it('serves the zxing decoder from our own assets, never a CDN', () => {
    const reader = manifest['client/features/scanner/zxing-reader.ts']!;
    const wasm = reader.assets?.find((asset) => asset.endsWith('.wasm'));
    expect(wasm).toMatch(/^assets\/zxing_reader-.*\.wasm$/);
    const code = readFileSync(path.join(dir, reader.file), 'utf8');
    expect(code).toContain(path.basename(wasm!));
  });
});
