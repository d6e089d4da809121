// Starts what every test file shares: one Firebase Auth emulator on a test port, and a
// PostgreSQL container when a Docker engine answers. Files read them through `inject`.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startAuthEmulator } from '../../server/launch/auth-emulator.js';
import { startPostgresContainerIfDocker } from './docker-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
    authProjectId: string;
    containerDatabaseUrl: string | null;
  }
}

export default async function setup(project: TestProject) {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-auth-'));
  const port = 9400 + Math.floor(Math.random() * 400) * 3;
  const emulator = await startAuthEmulator({ projectId: 'demo-stockroom-test', port, stateDir, persist: false });
  const container = await startPostgresContainerIfDocker();
  project.provide('authEmulatorHost', emulator.host);
  project.provide('authProjectId', emulator.projectId);
  project.provide('containerDatabaseUrl', container?.url ?? null);
  return async () => {
    await emulator.stop();
    await container?.stop();
    await rm(stateDir, { recursive: true, force: true });
  };
}
