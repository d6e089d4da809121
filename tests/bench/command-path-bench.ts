// The command and read paths over HTTP beside a bare Fastify + pg server on the same
// database: stock adjustments on one hot item, adjustments spread over 1,000
// items (each also naming a location, as the stock screens send them), and GET by id. autocannon (32 connections) drives the servers, which run in a
// child process (command-path-server.ts) so the load generator does not share their event
// loop. Each case alternates app, bare, app, bare, so drift on a shared machine hits both.
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result } from 'autocannon';
import { startAuthEmulator } from '../../server/launch/auth-emulator.js';
import { benchBackends, fmt, type BenchBackend, type Row } from './bench-kit.js';

export const PROJECT = 'demo-stockroom-bench';
export const EMULATOR_PORT = Number(process.env.BENCH_EMULATOR_PORT ?? 9851);
const CONNECTIONS = 32;
/** Seconds per measured run; each side runs twice. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const serverScript = fileURLToPath(new URL('./command-path-server.ts', import.meta.url));

interface Ready {
  appUrl: string;
  bareUrl: string;
  hot: string;
  spread: string[];
  /** A location at the main site (not its default) for the adjustments that name one. */
  locationId: string;
}

export async function signIn(host: string): Promise<string> {
  const call = async (p: string, body: unknown) =>
    (
      await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/${p}?key=any`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json() as Promise<any>;
  const email = `bench-${Date.now()}@stockroom.test`;
  const created = await call('accounts:signUp', { email, password: 'bench123', returnSecureToken: true });
  // A manager by claim: the server takes the role from the claim until the account registers.
  await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/projects/${PROJECT}/accounts:update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
    body: JSON.stringify({ localId: created.localId, customAttributes: JSON.stringify({ role: 'manager' }) }),
  });
  return (await call('accounts:signInWithPassword', { email, password: 'bench123', returnSecureToken: true })).idToken;
}

export function startServer(
  backend: BenchBackend,
  emulatorHost: string,
): Promise<{
  ready: Ready;
  stop(): Promise<void>;
  send(message: unknown): void;
  ask(message: unknown): Promise<void>;
}> {
  const child = fork(serverScript, [], {
    // BENCH_SERVER_ARGS: more node options for the server process (e.g. --cpu-prof).
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? [])],
    env: {
      ...process.env,
      BENCH_URL: backend.url ?? '',
      BENCH_EMULATOR: emulatorHost,
      BENCH_PROJECT: PROJECT,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    child.on('message', (message: { ready?: Ready }) => {
      if (!message.ready) return;
      resolve({
        ready: message.ready,
        send: (m) => child.send(m as never),
        ask: (m) =>
          new Promise<void>((done) => {
            const answered = (reply: { done?: boolean }) => {
              if (!reply.done) return;
              child.off('message', answered);
              done();
            };
            child.on('message', answered);
            child.send(m as never);
          }),
        stop: () =>
          new Promise<void>((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.send({ stop: true });
          }),
      });
    });
  });
}

interface Side {
  perSecond: number;
  p99: number;
  failed: number;
  statuses: string;
}

let keys = 0;

export async function run(options: {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  pathOf: () => string;
  body?: string;
  seconds: number;
  /** A fresh Idempotency-Key on every request, as the client sends one with every write. */
  keyed?: boolean;
}): Promise<Result> {
  return autocannon({
    url: options.url,
    connections: CONNECTIONS,
    duration: options.seconds,
    requests: [
      {
        method: options.method,
        headers: { ...options.headers, ...(options.body ? { 'content-type': 'application/json' } : {}) },
        ...(options.body ? { body: options.body } : {}),
        setupRequest: (request) => ({
          ...request,
          path: options.pathOf(),
          ...(options.keyed
            ? { headers: { ...request.headers, 'idempotency-key': `bench-${process.pid}-${++keys}` } }
            : {}),
        }),
      },
    ],
  });
}

/** app, bare, app, bare: the mean rate of each side and its worse p99. */
async function alternate(app: () => Promise<Result>, bare: () => Promise<Result>): Promise<{ app: Side; bare: Side }> {
  const sides: Record<'app' | 'bare', Result[]> = { app: [], bare: [] };
  for (let round = 0; round < 2; round++) {
    sides.app.push(await app());
    sides.bare.push(await bare());
  }
  const summary = (results: Result[]): Side => ({
    perSecond: results.reduce((s, r) => s + r['2xx'] / r.duration, 0) / results.length,
    p99: Math.max(...results.map((r) => r.latency.p99)),
    failed: results.reduce((s, r) => s + r.non2xx + r.errors, 0),
    statuses: results.map((r) => Object.keys(r.statusCodeStats).join('/')).join(' '),
  });
  return { app: summary(sides.app), bare: summary(sides.bare) };
}

async function measure(
  backend: BenchBackend,
  emulatorHost: string,
  token: string,
  log: (s: string) => void,
): Promise<Row[]> {
  const server = await startServer(backend, emulatorHost);
  const { appUrl, bareUrl, hot, spread, locationId } = server.ready;
  const auth = { authorization: `Bearer ${token}` };
  let next = 0;
  const anyItem = () => spread[next++ % spread.length]!;
  const body = JSON.stringify({ delta: 1, reason: 'restock' });
  const bodyAt = JSON.stringify({ delta: 1, reason: 'restock', locationId });
  const rows: Row[] = [];
  const cases = [
    {
      name: 'adjust, one hot item',
      target: 1.0,
      app: () =>
        run({
          url: appUrl,
          method: 'POST',
          headers: auth,
          body,
          seconds: SECONDS,
          pathOf: () => `/api/inventory/${hot}/adjust`,
        }),
      bare: () => run({ url: bareUrl, method: 'POST', body, seconds: SECONDS, pathOf: () => `/bare/${hot}/adjust` }),
      baseline: 'UPDATE',
    },
    {
      name: `adjust, spread over ${spread.length.toLocaleString()} items`,
      target: 0.6,
      app: () =>
        run({
          url: appUrl,
          method: 'POST',
          headers: auth,
          body,
          seconds: SECONDS,
          pathOf: () => `/api/inventory/${anyItem()}/adjust`,
        }),
      bare: () =>
        run({ url: bareUrl, method: 'POST', body, seconds: SECONDS, pathOf: () => `/bare/${anyItem()}/adjust` }),
      baseline: 'UPDATE',
    },
    {
      name: 'adjust at a location, one hot item',
      target: 1.0,
      app: () =>
        run({
          url: appUrl,
          method: 'POST',
          headers: auth,
          body: bodyAt,
          seconds: SECONDS,
          pathOf: () => `/api/inventory/${hot}/adjust`,
        }),
      bare: () => run({ url: bareUrl, method: 'POST', body, seconds: SECONDS, pathOf: () => `/bare/${hot}/adjust` }),
      baseline: 'UPDATE',
    },
    {
      name: `adjust at a location, spread over ${spread.length.toLocaleString()} items`,
      target: 0.6,
      app: () =>
        run({
          url: appUrl,
          method: 'POST',
          headers: auth,
          body: bodyAt,
          seconds: SECONDS,
          pathOf: () => `/api/inventory/${anyItem()}/adjust`,
        }),
      bare: () =>
        run({ url: bareUrl, method: 'POST', body, seconds: SECONDS, pathOf: () => `/bare/${anyItem()}/adjust` }),
      baseline: 'UPDATE',
    },
    {
      name: `adjust with an Idempotency-Key (as the client sends), spread over ${spread.length.toLocaleString()} items`,
      target: 0.6,
      app: () =>
        run({
          url: appUrl,
          method: 'POST',
          headers: auth,
          body,
          seconds: SECONDS,
          keyed: true,
          pathOf: () => `/api/inventory/${anyItem()}/adjust`,
        }),
      bare: () =>
        run({ url: bareUrl, method: 'POST', body, seconds: SECONDS, pathOf: () => `/bare/${anyItem()}/adjust` }),
      baseline: 'UPDATE',
    },
    {
      name: 'GET item by id with token check',
      target: 0.85,
      app: () =>
        run({
          url: appUrl,
          method: 'GET',
          headers: auth,
          seconds: SECONDS,
          pathOf: () => `/api/inventory/${anyItem()}`,
        }),
      bare: () => run({ url: bareUrl, method: 'GET', seconds: SECONDS, pathOf: () => `/bare/${anyItem()}` }),
      baseline: 'SELECT',
    },
  ];
  // BENCH_CASES=keyed,hot runs only the cases whose names contain one of these words.
  const only = process.env.BENCH_CASES?.split(',').filter(Boolean);
  try {
    for (const c of cases.filter(
      (k) => !only || only.some((word) => k.name.toLowerCase().includes(word.toLowerCase())),
    )) {
      log(`  ${c.name} (${backend.name})...`);
      await c.app(); // warm-up, not counted
      const { app, bare } = await alternate(c.app, c.bare);
      const ratio = app.perSecond / bare.perSecond;
      const row: Row = {
        benchmark: `${c.name}, req/s (${backend.name}, ${CONNECTIONS} clients)`,
        result:
          `${fmt(app.perSecond)} (p99 ${fmt(app.p99)} ms) vs bare ${c.baseline} ${fmt(bare.perSecond)} (p99 ${fmt(bare.p99)} ms)` +
          ` = ${fmt(ratio, 2)}${app.failed ? `, ${app.failed} failed (${app.statuses})` : ''}`,
        target: `ratio >= ${fmt(c.target, 2)}`,
      };
      log(`  ${row.result}`);
      rows.push(row);
    }
  } finally {
    await server.stop();
  }
  return rows;
}

export async function commandPathBench(log: (s: string) => void): Promise<Row[]> {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-bench-auth-'));
  const emulator = await startAuthEmulator({ projectId: PROJECT, port: EMULATOR_PORT, stateDir, persist: false });
  const rows: Row[] = [];
  try {
    const token = await signIn(emulator.host);
    const only = process.env.BENCH_BACKEND;
    for (const backend of benchBackends()) {
      if (only && only !== backend.name) continue;
      log(`command and read paths on ${backend.name}...`);
      rows.push(...(await measure(backend, emulator.host, token, log)));
    }
  } finally {
    await emulator.stop();
    await rm(stateDir, { recursive: true, force: true });
  }
  return rows;
}
