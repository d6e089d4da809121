// The production build's manifest, as the bundle tests read it: which chunk files a page
// loads before it runs (the chunks named and everything they import statically).
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  assets?: string[];
}

export type BuildManifest = Record<string, ManifestChunk>;

export function readBuildManifest(dir: string): BuildManifest {
  return JSON.parse(readFileSync(path.join(dir, '.vite', 'manifest.json'), 'utf8')) as BuildManifest;
}

/** The chunk files these manifest keys load before running: themselves and their static imports. */
export function staticClosure(manifest: BuildManifest, keys: string[]): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`No chunk ${key} in the build manifest`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return files;
}
