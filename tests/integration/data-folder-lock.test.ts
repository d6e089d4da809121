// An embedded (PGlite) data folder belongs to one process at a time: a second server or
// CLI script on the same folder is refused with a message that says what to do, instead of
// corrupting the store; the lock of a process that died is taken over.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { openStore } from '../../server/main.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

describe('PGlite data folder lock', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-lock-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));
  const config = () =>
    loadConfig({ DATA_DIR: dataDir, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:1', LOG_LEVEL: 'silent' });

  it('refuses a second process with a clear message while the first has it open, and lets it in after', async () => {
    const first = await openStore(config());
    const second = await run(process.execPath, ['--import', 'tsx', 'server/scripts/projections.ts', 'verify'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`is already in use by another process (pid ${process.pid})`);
    expect(second.stderr).toContain('set DATA_DIR to another folder');
    // The first process's store is untouched and still works.
    expect((await first.store.readStream('nothing')).length).toBe(0);
    await first.database.close();

    const after = await run(process.execPath, ['--import', 'tsx', 'server/scripts/projections.ts', 'verify'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    expect(after.stdout).toMatch(/match/i);
  });

  it('takes over the lock left by a process that died', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    await writeFile(path.join(dataDir, 'pglite', 'stockroom.lock'), dead);
    const store = await openStore(config());
    await store.database.close();
  });
});
