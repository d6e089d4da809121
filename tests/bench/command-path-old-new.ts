// The command-path bench's cases on two builds of the server, alternated in one run: each
// tree's own command-path-server.ts (a stores of its own: a PGlite in memory, or a schema of its
// own on PostgreSQL), both running, measured in turn (A B B A, ...), so the machine's drift
// hits both alike. Prints, per case, each build's rate in every round, its mean, the spread
// between its own rounds (the run's noise) and the ratio of the means. For example:
//   OLD_NEW_DIRS=/tmp/old,/work/wt/mine OLD_NEW_URL=postgres://... node --import tsx tests/bench/command-path-old-new.ts
// OLD_NEW_ROUNDS (4), OLD_NEW_SECONDS (5); without OLD_NEW_URL, PGlite. Not part of `npm run bench`.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Result } from 'autocannon';
import { startAuthEmulator } from '../../server/launch/auth-emulator.js';
import { PROJECT, EMULATOR_PORT, run, signIn } from './command-path-bench.js';

interface Ready {
  appUrl: string;
  hot: string;
  spread: string[];
  /** A location for the adjustments that name one (trees from before it: none, those cases are skipped). */
  locationId?: string;
}

const dirs = process.env.OLD_NEW_DIRS!.split(',');
const names = dirs.length === 2 ? ['old', 'new'] : dirs.map((d) => path.basename(d));
const rounds = Number(process.env.OLD_NEW_ROUNDS ?? 4);
const seconds = Number(process.env.OLD_NEW_SECONDS ?? 5);
const url = process.env.OLD_NEW_URL;

/** One tree's bench server, started from that tree (its own code, its own node_modules). */
function startServer(dir: string, emulatorHost: string): Promise<{ ready: Ready; child: ChildProcess }> {
  const child = fork(path.join(dir, 'tests/bench/command-path-server.ts'), [], {
    cwd: dir,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_URL: url ?? '', BENCH_EMULATOR: emulatorHost, BENCH_PROJECT: PROJECT },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server in ${dir} exited with ${code}`)));
    child.on('message', (message: { ready?: Ready }) => message.ready && resolve({ ready: message.ready, child }));
  });
}

const stop = (child: ChildProcess) =>
  new Promise<void>((done) => {
    child.removeAllListeners('exit');
    child.once('exit', () => done());
    child.send({ stop: true });
  });

const stateDir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-old-new-'));
const emulator = await startAuthEmulator({
  projectId: PROJECT,
  port: Number(process.env.AUTH_EMULATOR_PORT ?? EMULATOR_PORT),
  stateDir,
  persist: false,
});
const token = await signIn(emulator.host);
const servers: Array<{ ready: Ready; child: ChildProcess }> = [];
for (const dir of dirs) servers.push(await startServer(dir, emulator.host));

const auth = { authorization: `Bearer ${token}` };
const body = JSON.stringify({ delta: 1, reason: 'restock' });
type Case = { name: string; run: (ready: Ready) => Promise<Result> };
const anyItem = (() => {
  let next = 0;
  return (ready: Ready) => ready.spread[next++ % ready.spread.length]!;
})();
const cases: Case[] = [
  {
    name: 'adjust, one hot item',
    run: (r) =>
      run({
        url: r.appUrl,
        method: 'POST',
        headers: auth,
        body,
        seconds,
        pathOf: () => `/api/inventory/${r.hot}/adjust`,
      }),
  },
  {
    name: 'adjust, spread',
    run: (r) =>
      run({
        url: r.appUrl,
        method: 'POST',
        headers: auth,
        body,
        seconds,
        pathOf: () => `/api/inventory/${anyItem(r)}/adjust`,
      }),
  },
  {
    name: 'adjust at a location, one hot item',
    run: (r) =>
      run({
        url: r.appUrl,
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ delta: 1, reason: 'restock', locationId: r.locationId }),
        seconds,
        pathOf: () => `/api/inventory/${r.hot}/adjust`,
      }),
  },
  {
    name: 'adjust at a location, spread',
    run: (r) =>
      run({
        url: r.appUrl,
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ delta: 1, reason: 'restock', locationId: r.locationId }),
        seconds,
        pathOf: () => `/api/inventory/${anyItem(r)}/adjust`,
      }),
  },
  {
    name: 'adjust, spread, Idempotency-Key',
    run: (r) =>
      run({
        url: r.appUrl,
        method: 'POST',
        headers: auth,
        body,
        seconds,
        keyed: true,
        pathOf: () => `/api/inventory/${anyItem(r)}/adjust`,
      }),
  },
  {
    name: 'GET item by id',
    run: (r) =>
      run({ url: r.appUrl, method: 'GET', headers: auth, seconds, pathOf: () => `/api/inventory/${anyItem(r)}` }),
  },
];
const only = process.env.OLD_NEW_CASES?.split(',').filter(Boolean);
const loads: number[] = [];
const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
const lines: string[] = [];
try {
  const located = servers.every((server) => server.ready.locationId);
  for (const c of cases.filter(
    (k) =>
      (!only || only.some((w) => k.name.toLowerCase().includes(w))) && (located || !k.name.includes('at a location')),
  )) {
    for (const server of servers) await c.run(server.ready); // warm-up, not counted
    const rates: number[][] = servers.map(() => []);
    const p99s: number[][] = servers.map(() => []);
    let failed = 0;
    for (let round = 0; round < rounds; round++) {
      const order = servers.map((_, i) => i);
      if (round % 2) order.reverse();
      for (const i of order) {
        const result = await c.run(servers[i]!.ready);
        rates[i]!.push(result['2xx'] / result.duration);
        p99s[i]!.push(result.latency.p99);
        failed += result.non2xx + result.errors;
        loads.push(os.loadavg()[0]!);
        console.error(
          `${c.name}, round ${round}, ${names[i]}: ${(result['2xx'] / result.duration).toFixed(0)}/s p99 ${result.latency.p99} ms (load ${os.loadavg()[0]!.toFixed(1)})`,
        );
      }
    }
    const cells = rates.map((list, i) => {
      const m = mean(list);
      const spread = (Math.max(...list) - Math.min(...list)) / m;
      return `${names[i]} ${m.toFixed(0)}/s [${list.map((x) => x.toFixed(0)).join(' ')}] spread ${(spread * 100).toFixed(0)}% p99 ${Math.max(...p99s[i]!)} ms`;
    });
    // Each round's pair (run back to back) as well: their ratios' range is the run's noise on a ratio.
    const pairs = rates.length === 2 ? rates[1]!.map((x, r) => x / rates[0]![r]!) : [];
    const ratio = pairs.length
      ? ` | new/old ${(mean(rates[1]!) / mean(rates[0]!)).toFixed(2)} (rounds ${Math.min(...pairs).toFixed(2)} to ${Math.max(...pairs).toFixed(2)})`
      : '';
    lines.push(
      `${c.name} (${url ? 'postgres' : 'pglite'}): ${cells.join(' | ')}${ratio}${failed ? ` | ${failed} failed` : ''}`,
    );
    console.error(lines.at(-1));
  }
} finally {
  for (const server of servers) await stop(server.child);
  await emulator.stop();
  await rm(stateDir, { recursive: true, force: true });
}
console.log(lines.join('\n'));
console.log(
  `load average during the run: ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)} (mean ${mean(loads).toFixed(1)}) on ${os.cpus().length} cores`,
);
process.exit(0);
