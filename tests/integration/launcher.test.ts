// `npm start`'s launcher as a newcomer meets it: it starts the emulator and the server on an
// empty data folder, seeds once, keeps accounts across a restart, and Ctrl-C stops it all.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

const answers = (url: string) => () =>
  fetch(url, { signal: AbortSignal.timeout(1000) }).then(
    (r) => r.status < 500,
    () => false,
  );

describe('npm start launcher', () => {
  const port = 3700 + Math.floor(Math.random() * 200);
  const emulatorPort = 10800 + Math.floor(Math.random() * 300) * 3;
  let dataDir: string;
  let child: ChildProcess | undefined;
  let output = '';

  const start = () => {
    output = '';
    child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts', '--api-only'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        AUTH_EMULATOR_PORT: String(emulatorPort),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // Its own project id: the emulator finds its hub by project, and a developer's
        // `npm start` on demo-stockroom may be running beside the tests.
        FIREBASE_PROJECT_ID: 'demo-stockroom-launch',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    return waitFor(answers(`http://127.0.0.1:${port}/api/health`), 90_000);
  };
  const stop = async () => {
    const exited = new Promise((r) => child!.once('exit', r));
    child!.kill('SIGINT');
    await exited;
    child = undefined;
  };
  const emulator = `http://127.0.0.1:${emulatorPort}`;
  const auth = (p: string, body: unknown) =>
    fetch(`${emulator}/identitytoolkit.googleapis.com/v1/${p}?key=any`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<any>);

  afterAll(async () => {
    if (child) child.kill('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('starts, seeds once, keeps accounts across a restart, and stops everything on Ctrl-C', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-launch-'));
    expect(await start(), output).toBe(true);
    expect(output).toContain('manager@stockroom.test');
    expect(output).toContain('must not be exposed');

    const made = await auth('accounts:signUp', {
      email: 'newcomer@stockroom.test',
      password: 'newcomer1',
      returnSecureToken: true,
    });
    expect(made.idToken).toBeTruthy();
    const categories = async () => {
      const login = await auth('accounts:signInWithPassword', {
        email: 'manager@stockroom.test',
        password: 'manager123',
        returnSecureToken: true,
      });
      const res = await fetch(`http://127.0.0.1:${port}/api/categories`, {
        headers: { authorization: `Bearer ${login.idToken}` },
      });
      return ((await res.json()) as { name: string }[]).map((c) => c.name).sort();
    };
    expect(await categories()).toEqual(['Clothing', 'Electronics', 'Food & Beverages']);

    await stop();
    expect(await answers(`${emulator}/`)()).toBe(false); // no emulator left running
    expect(await answers(`http://127.0.0.1:${port}/api/health`)()).toBe(false);

    expect(await start(), output).toBe(true);
    const again = await auth('accounts:signInWithPassword', {
      email: 'newcomer@stockroom.test',
      password: 'newcomer1',
      returnSecureToken: true,
    });
    expect(again.localId).toBe(made.localId);
    expect(await categories()).toEqual(['Clothing', 'Electronics', 'Food & Beverages']); // not seeded twice
    await stop();
    expect(await answers(`${emulator}/`)()).toBe(false);
  }, 240_000);

  it('fails fast with a clear message on a bad variable', async () => {
    const result = await new Promise<{ code: number | null; text: string }>((resolve) => {
      let text = '';
      const bad = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts', '--api-only'], {
        cwd: root,
        env: { ...process.env, PORT: 'eighty' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      bad.stdout!.on('data', (d) => (text += d));
      bad.stderr!.on('data', (d) => (text += d));
      bad.on('exit', (code) => resolve({ code, text }));
    });
    expect(result.code).toBe(1);
    expect(result.text).toContain('PORT must be an integer from 0 to 65535, got "eighty"');
  });
});
