// Starts what every test file shares: one Firebase Auth emulator on a test port, a migrated
// PGlite store's dump (pglite-snapshot.ts), and a PostgreSQL container when a Docker engine
// answers. Files read them through `inject`.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startAuthEmulator } from '../../server/launch/auth-emulator.js';
import { startPostgresContainerIfDocker } from './docker-postgres.js';
import { writeMigratedSnapshot } from './pglite-snapshot.js';

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
    authProjectId: string;
    containerDatabaseUrl: string | null;
    pgliteSnapshotFile: string;
  }
}

export default async function setup(project: TestProject) {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-auth-'));
  const port = 9400 + Math.floor(Math.random() * 400) * 3;
  const snapshotDir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-pglite-'));
  const snapshotFile = path.join(snapshotDir, 'migrated.tar');
  const emulator = await startAuthEmulator({ projectId: 'demo-stockroom-test', port, stateDir, persist: false });
  // Only once the emulator is up: made meanwhile, it slowed the emulator's start past its
  // deadline on a loaded machine.
  await writeMigratedSnapshot(snapshotFile);
  const container = await startPostgresContainerIfDocker();
  project.provide('authEmulatorHost', emulator.host);
  project.provide('authProjectId', emulator.projectId);
  project.provide('containerDatabaseUrl', container?.url ?? null);
  project.provide('pgliteSnapshotFile', snapshotFile);
  return async () => {
    await emulator.stop();
    await container?.stop();
    await rm(stateDir, { recursive: true, force: true });
    await rm(snapshotDir, { recursive: true, force: true });
  };
}
