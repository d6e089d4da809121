// The demo store's accounts: the demo manager and staff logins exist in the users
// projection with their roles (as events), once, and sign in with those roles. And never
// in a real Firebase project: `npm start` there refuses SEED_DEMO before it starts anything.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGINS } from '../../server/seed/demo-accounts.js';
import { seedDemo } from '../../server/seed/demo-seed.js';
import { backends } from '../helpers/backends.js';
import { signIn } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe.each(backends())('demo accounts on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
    await seedDemo(server.store.store, server.verifier.auth);
  });
  afterAll(() => server?.close());

  it('registers the demo manager and staff with their roles, through events', async () => {
    const manager = DEMO_LOGINS.find((l) => l.role === 'manager')!;
    const staff = DEMO_LOGINS.find((l) => l.role === 'staff')!;
    const account = await signIn(manager.email, manager.password);
    const users = await server.request('GET', '/api/users', { token: account.idToken });
    expect(users.status).toBe(200);
    expect(users.body.map((u: any) => [u.id, u.role, u.name])).toEqual([
      [manager.uid, 'manager', manager.displayName],
      [staff.uid, 'staff', staff.displayName],
    ]);
    const events = await server.store.store.readStream(`user-${manager.uid}`);
    expect(events.map((e) => [e.type, e.data.founder, e.data.registeredBy])).toEqual([
      ['UserRegistered', true, 'seed'],
    ]);
  });

  it('signs the demo staff in as staff, and seeding again registers nothing new', async () => {
    const staff = DEMO_LOGINS.find((l) => l.role === 'staff')!;
    await seedDemo(server.store.store, server.verifier.auth);
    const account = await signIn(staff.email, staff.password);
    const session = await server.request('POST', '/api/session', { token: account.idToken, body: {} });
    expect(session.body).toMatchObject({ user: { id: staff.uid, role: 'staff' }, refreshToken: false });
    expect(await server.store.store.readStream(`user-${staff.uid}`)).toHaveLength(1);
    // The sample store was seeded too (the store was fresh when the accounts were added).
    const categories = await server.request('GET', '/api/categories', { token: account.idToken });
    expect(categories.body.map((c: any) => c.name).sort()).toEqual(['Clothing', 'Electronics', 'Food & Beverages']);
  });
});

describe('demo seeding with a real Firebase project', () => {
  it('stops `npm start` at once with a message naming the problem, before any database or account is touched', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-real-seed-'));
    try {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        FIREBASE_PROJECT_ID: 'acme-stockroom',
        FIREBASE_API_KEY: 'AIza-real-key',
        SEED_DEMO: 'true',
        DATA_DIR: dataDir,
        PORT: '0',
      };
      delete env.FIREBASE_AUTH_EMULATOR_HOST;
      delete env.DATABASE_URL;
      const result = await new Promise<{ code: number | null; text: string }>((resolve) => {
        let text = '';
        const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts', '--api-only'], {
          cwd: path.resolve(import.meta.dirname, '../..'),
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        child.stdout!.on('data', (d) => (text += d));
        child.stderr!.on('data', (d) => (text += d));
        child.on('exit', (code) => resolve({ code, text }));
      });
      expect(result.code).toBe(1);
      expect(result.text).toContain(
        '[stockroom] Configuration error: SEED_DEMO is on but FIREBASE_AUTH_EMULATOR_HOST is not set',
      );
      expect(result.text).toContain('"acme-stockroom"');
      expect(result.text).not.toContain('Demo logins');
      expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false); // no store was opened
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
