// Builds the client with Vite when dist/client is missing or older than any client source.
import { existsSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const clientDist = path.join(root, 'dist', 'client');

/** Newest modification time in a tree; a folder's own time counts (a deleted file changes it). */
export function newestMtime(target: string): number {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function clientBuildIsStale(): boolean {
  const built = path.join(clientDist, 'index.html');
  // A production image ships dist/ without client sources: nothing to rebuild from.
  if (!existsSync(path.join(root, 'client'))) return false;
  if (!existsSync(built)) return true;
  const sources = ['client', 'shared', 'index.html', 'vite.config.ts', 'package.json']
    .map((p) => path.join(root, p))
    .filter((p) => existsSync(p));
  return Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs;
}

export async function buildClientIfStale(log: (line: string) => void): Promise<void> {
  if (!clientBuildIsStale()) return;
  log('Building the client (first start or sources changed)...');
  const { build } = await import('vite');
  await build({ root, logLevel: 'warn', configFile: path.join(root, 'vite.config.ts') });
}
