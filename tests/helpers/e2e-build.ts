// Builds the client once for the end-to-end and bundle-size tests, into dist/e2e-client
// (apart from dist/client, which a running `npm start` may be serving). Test files run in
// parallel workers, so a lock folder makes one build and the others wait for it; a build
// newer than every client source is reused.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { newestMtime } from '../../server/launch/client-build.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const e2eClientDir = path.join(root, 'dist', 'e2e-client');
const lockDir = `${e2eClientDir}.lock`;
const SOURCES = ['client', 'shared', 'index.html', 'vite.config.ts', 'package.json'];
const STALE_LOCK_MS = 5 * 60_000;

export function e2eBuildIsStale(): boolean {
  const built = path.join(e2eClientDir, 'index.html');
  if (!existsSync(built)) return true;
  const newest = Math.max(
    ...SOURCES.map((p) => path.join(root, p))
      .filter((p) => existsSync(p))
      .map(newestMtime),
  );
  return newest > statSync(built).mtimeMs;
}

async function acquireLock(): Promise<void> {
  const deadline = Date.now() + 3 * 60_000;
  // A fresh clone has no dist/ yet: without its parent the lock could never be taken.
  mkdirSync(path.dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lockDir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lockDir).mtimeMs > STALE_LOCK_MS) rmSync(lockDir, { recursive: true, force: true });
      } catch {
        /* released meanwhile */
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for the client build lock ${lockDir}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** The folder of a production build of the current client sources. */
export async function buildClientForTests(): Promise<string> {
  await acquireLock();
  try {
    if (e2eBuildIsStale()) {
      // In its own process with NODE_ENV=production: inside vitest NODE_ENV is 'test', and
      // Vite would bundle React's development build (double effects, bigger bundles).
      const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
      const result = spawnSync(
        process.execPath,
        [vite, 'build', '--outDir', e2eClientDir, '--emptyOutDir', '--logLevel', 'warn'],
        {
          cwd: root,
          env: { ...process.env, NODE_ENV: 'production' },
          encoding: 'utf8',
        },
      );
      if (result.status !== 0) throw new Error(`Client build failed:\n${result.stdout}\n${result.stderr}`);
    }
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
  return e2eClientDir;
}
