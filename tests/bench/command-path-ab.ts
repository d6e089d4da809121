// A/B of group-commit settings on the command path: one server (command-path-server.ts, with
// BENCH_TRACE), its settings switched between runs by environment variables it reads at each
// batch (command-path-trace.ts), each variant run in turn (the order reversed every round) and
// the bare UPDATE once per round, so the variants share the machine's drift. For example:
//   AB_VARIANTS='[{"name":"4 lanes","env":{"BENCH_LANES":"4"}},{"name":"2 lanes","env":{"BENCH_LANES":"2"}}]' \
//   AB_URL=postgres://... node --import tsx tests/bench/command-path-ab.ts
// AB_ROUNDS (3), AB_SECONDS (4), AB_KEYED=0 (no Idempotency-Key), AB_HOT=1 (one item), AB_NO_BARE=1;
// a variant may set "keyed": false, and "sql": statements the server runs before its run
// (an index dropped or put back). Not part of `npm run bench`.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startAuthEmulator } from '../../server/launch/auth-emulator.js';
import { PROJECT, EMULATOR_PORT, run, signIn, startServer } from './command-path-bench.js';

const variants: Array<{ name: string; env: Record<string, string>; keyed?: boolean; sql?: string[] }> = JSON.parse(
  process.env.AB_VARIANTS!,
);
const rounds = Number(process.env.AB_ROUNDS ?? 3);
const seconds = Number(process.env.AB_SECONDS ?? 4);
const keyed = process.env.AB_KEYED !== '0';
const url = process.env.AB_URL;
const stateDir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-ab-'));
const emulator = await startAuthEmulator({ projectId: PROJECT, port: EMULATOR_PORT, stateDir, persist: false });
const token = await signIn(emulator.host);
const server = await startServer(url ? { name: 'postgres', url } : { name: 'pglite' }, emulator.host);
const { appUrl, bareUrl, spread, hot } = server.ready;
let next = 0;
const item = () => (process.env.AB_HOT ? hot : spread[next++ % spread.length]!);
const body = JSON.stringify({ delta: 1, reason: 'restock' });
const rates: Record<string, number[]> = { bare: [] };
const load = () => os.loadavg()[0]!.toFixed(1);
const app = (k = keyed) =>
  run({
    url: appUrl,
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body,
    seconds,
    keyed: k,
    pathOf: () => `/api/inventory/${item()}/adjust`,
  });
const bare = () => run({ url: bareUrl, method: 'POST', body, seconds, pathOf: () => `/bare/${item()}/adjust` });
await app();
for (let r = 0; r < rounds; r++) {
  const order = r % 2 ? [...variants].reverse() : variants;
  for (const v of order) {
    server.send({ env: v.env });
    if (v.sql) await server.ask({ sql: v.sql });
    await new Promise((res) => setTimeout(res, 200));
    const res = await app(v.keyed ?? keyed);
    (rates[v.name] ??= []).push(res['2xx'] / res.duration);
    console.log(
      `round ${r} ${v.name}: ${(res['2xx'] / res.duration).toFixed(0)}/s p99 ${res.latency.p99} non2xx ${res.non2xx} (load ${load()})`,
    );
  }
  if (process.env.AB_NO_BARE) continue;
  const b = await bare();
  rates.bare!.push(b['2xx'] / b.duration);
  console.log(`round ${r} bare: ${(b['2xx'] / b.duration).toFixed(0)}/s (load ${load()})`);
}
const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
for (const [name, list] of Object.entries(rates)) {
  console.log(`${name}: mean ${mean(list).toFixed(0)}/s, ratio to bare ${(mean(list) / mean(rates.bare!)).toFixed(2)}`);
  if (!rates.bare!.length) console.log(list.join(' '));
}
await server.stop();
await emulator.stop();
await rm(stateDir, { recursive: true, force: true });
process.exit(0);
