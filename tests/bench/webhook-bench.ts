// Webhook delivery: the stock-adjustment write rate through the API with no
// endpoint and with one endpoint receiving every event (target: with >= 0.9 x without, so
// delivery does not slow the app), delivery throughput, and lag from commit to arrival at a
// local receiver while writes come at a steady 200 events/s (target: p99 <= 1 s).
//
// The write rates come from alternating rounds after a warm-up of writes and of delivery
// (without/with, then with/without, ...), the same load each time, so drift (a growing log, JIT, a neighbour's
// load on a shared machine) falls on both sides. Each "with" phase gets a new endpoint
// (it starts at the log's head) and ends only when the receiver has every message, so no
// phase pays for another's delivery; what was still undelivered when its writes ended is
// reported beside the rate, a deliverer that fell behind would show there.
// BENCH_BACKEND=pglite|postgres runs one backend.
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { buildApp } from '../../server/app.js';
import { claimPrincipalResolver } from '../../server/auth/principal.js';
import type { TokenVerifier } from '../../server/auth/verify-token.js';
import { loadConfig } from '../../server/config.js';
import { benchBackends, fmt, load, openBenchStore, percentile, type BenchBackend, type Row } from './bench-kit.js';

const ITEMS = 20;
const WRITES = 3000;
/** Rounds of one phase without and one with an endpoint (BENCH_WEBHOOK_ROUNDS). */
const ROUNDS = Number(process.env.BENCH_WEBHOOK_ROUNDS ?? 4);
const WARM_UP = 1000;
const CONCURRENCY = 16;
const STEADY_RATE = 200;
/** Messages delivered in the catch-up phase (no writes meanwhile). */
const CATCH_UP = Number(process.env.BENCH_WEBHOOK_CATCH_UP ?? 6000);
const STEADY_SECONDS = 10;
/** Fan-out: FAN_RATE events/s, each to FAN_ENDPOINTS endpoints (an origin each). */
const FAN_ENDPOINTS = 20;
const FAN_RATE = Number(process.env.BENCH_WEBHOOK_FAN_RATE ?? 200);
const FAN_SECONDS = Number(process.env.BENCH_WEBHOOK_FAN_SECONDS ?? 10);
const FAN_ROUNDS = Number(process.env.BENCH_WEBHOOK_FAN_ROUNDS ?? 3);
/** BENCH_WEBHOOK_ONLY=fanout: the fan-out phase alone. */
const ONLY_FAN_OUT = process.env.BENCH_WEBHOOK_ONLY === 'fanout';

/** A fixed manager for every request: the bench measures delivery, not sign-in. */
const benchVerifier = {
  verify: async () => ({
    uid: 'bench-manager',
    email: 'bench@stockroom.test',
    name: 'Bench',
    picture: null,
    roleClaim: 'manager',
    provider: 'password',
    expiresAt: Date.now() / 1000 + 3600,
  }),
  auth: undefined as never,
  close: async () => undefined,
} satisfies TokenVerifier;

interface BenchReceiver {
  url: string;
  /** Every port's URL (the first is `url`): each its own endpoint origin. */
  urls: string[];
  /** The receiver thread's id on Linux (for BENCH_WEBHOOK_CPU), else null. */
  tid: number | null;
  /** Messages arrived (first time) in this phase. */
  arrived(): Promise<number>;
  /** Lag of each message's first arrival in this phase, and requests for a message that had arrived before (at-least-once re-sends). */
  results(): Promise<{ lags: number[]; sentTwice: number }>;
  /** Starts a new phase: earlier messages arriving again count as sent twice, not as arrivals. */
  nextPhase(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The receiver runs in a worker thread, as a real one runs elsewhere: its CPU is not billed
 * to the app's event loop (on a busy two-core machine it was a good part of the "with an
 * endpoint" slowdown and of every delivery's round trip).
 */
const RECEIVER_THREAD = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
let arrivals = new Map();
const earlier = new Set();
let sentTwice = 0;
const handle = (port) => (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const id = port + ' ' + String(req.headers['webhook-id']);
    if (arrivals.has(id) || earlier.has(id)) sentTwice += 1;
    else arrivals.set(id, Date.now() - Date.parse(body.data.event.createdAt));
    res.end('{}');
  });
};
let tid = null;
try { tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()); } catch {}
const servers = [];
const ports = [];
for (let i = 0; i < workerData.ports; i++) {
  const server = http.createServer();
  servers.push(server);
  server.listen(0, '127.0.0.1', () => {
    server.on('request', handle(server.address().port));
    ports.push(server.address().port);
    if (ports.length === workerData.ports) parentPort.postMessage({ ports, tid });
  });
}
parentPort.on('message', ({ ask, n }) => {
  if (ask === 'arrived') parentPort.postMessage({ n, value: arrivals.size });
  if (ask === 'results') parentPort.postMessage({ n, value: { lags: [...arrivals.values()], sentTwice } });
  if (ask === 'nextPhase') {
    for (const id of arrivals.keys()) earlier.add(id);
    arrivals = new Map();
    sentTwice = 0;
    parentPort.postMessage({ n, value: null });
  }
  if (ask === 'close') {
    let open = servers.length;
    for (const server of servers) server.close(() => --open === 0 && parentPort.postMessage({ n, value: null }));
  }
});
`;

/** BENCH_WEBHOOK_CPU=1: where each phase's CPU went (Linux only), in ms per write. */
const CPU = process.env.BENCH_WEBHOOK_CPU === '1';

/** On-CPU nanoseconds of a thread or process (/proc/.../schedstat), 0 when unreadable. */
function onCpuNs(path: string): number {
  try {
    return Number(readFileSync(path, 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
}

/** CPU so far: this process's main thread, the receiver thread, its other threads (GC, ...), the given database backends, and the machine's busy time. */
function cpuNow(receiverTid: number | null, backendPids: number[]): Record<string, number> {
  const groups: Record<string, number> = { main: 0, receiver: 0, otherThreads: 0, postgres: 0, machine: 0 };
  for (const tid of readdirSync('/proc/self/task').map(Number)) {
    const ns = onCpuNs(`/proc/self/task/${tid}/schedstat`);
    if (tid === process.pid) groups.main! += ns;
    else if (tid === receiverTid) groups.receiver! += ns;
    else groups.otherThreads! += ns;
  }
  for (const pid of backendPids) groups.postgres! += onCpuNs(`/proc/${pid}/schedstat`);
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .map(Number);
  groups.machine = (user! + nice! + system! + irq! + softirq! + steal!) * 1e7; // jiffies of 10 ms
  return groups;
}

const cpuPerWrite = (before: Record<string, number>, after: Record<string, number>, writes: number) =>
  Object.keys(before)
    .map((k) => `${k} ${fmt((after[k]! - before[k]!) / 1e6 / writes, 3)}`)
    .join(', ');

async function startReceiver(ports: number): Promise<BenchReceiver> {
  const worker = new Worker(RECEIVER_THREAD, { eval: true, workerData: { ports } });
  const { ports: listening, tid } = await new Promise<{ ports: number[]; tid: number | null }>((resolve, reject) => {
    worker.once('message', (m: { ports: number[]; tid: number | null }) => resolve(m));
    worker.once('error', reject);
  });
  const waiting = new Map<number, (value: any) => void>();
  let asked = 0;
  worker.on('message', (m: { n?: number; value: unknown }) => {
    if (m.n !== undefined) waiting.get(m.n)?.(m.value);
    if (m.n !== undefined) waiting.delete(m.n);
  });
  const ask = <T>(what: string) =>
    new Promise<T>((resolve) => {
      const n = ++asked;
      waiting.set(n, resolve);
      worker.postMessage({ ask: what, n });
    });
  return {
    url: `http://127.0.0.1:${listening[0]}/hook`,
    urls: listening.map((port) => `http://127.0.0.1:${port}/hook`),
    tid,
    arrived: () => ask<number>('arrived'),
    results: () => ask<{ lags: number[]; sentTwice: number }>('results'),
    nextPhase: () => ask<void>('nextPhase'),
    async close() {
      await ask('close');
      await worker.terminate();
    },
  };
}

async function benchOn(backend: BenchBackend, log: (s: string) => void): Promise<Row[]> {
  const bench = await openBenchStore(backend);
  // Every fan-out endpoint delivered at once (the default, 4, takes turns between caught-up endpoints).
  const config = loadConfig({
    FIREBASE_PROJECT_ID: 'demo-bench',
    FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:1',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    WEBHOOK_CONCURRENCY: String(FAN_ENDPOINTS),
  });
  const app = await buildApp({
    config,
    database: bench.database,
    store: bench.store,
    verifier: benchVerifier,
    resolvePrincipal: claimPrincipalResolver,
  });
  await app.ready();
  const receiver = await startReceiver(FAN_ENDPOINTS);
  const headers = { authorization: 'Bearer bench', 'content-type': 'application/json' };
  const call = async (method: 'POST' | 'GET' | 'DELETE', url: string, payload?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: payload === undefined ? { authorization: headers.authorization } : headers,
      payload: payload === undefined ? undefined : JSON.stringify(payload),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.statusCode === 204 ? null : res.json();
  };
  try {
    const category = await call('POST', '/api/categories', { name: 'Bench' });
    const items: string[] = [];
    for (let i = 0; i < ITEMS; i++) {
      items.push(
        (
          await call('POST', '/api/inventory', {
            name: `Bench ${i}`,
            sku: `WB-${i}`,
            category_id: category.id,
            quantity: 10_000_000,
            price: 1,
            threshold: 0,
          })
        ).id,
      );
    }
    const adjust = (i: number) =>
      call('POST', `/api/inventory/${items[i % ITEMS]}/adjust`, { delta: -1, reason: 'sale' }).then(() => undefined);

    await load(WARM_UP, CONCURRENCY, adjust);
    // Delivery warms up too: its code compiles on the first sends, which otherwise fell on
    // the first round's "with" phase alone and made it the slowest of every run.
    const warm = (await call('POST', '/api/webhooks', { url: receiver.url, eventTypes: ['stock.adjusted'] })).endpoint
      .id;
    await load(WARM_UP, CONCURRENCY, adjust);
    while ((await receiver.arrived()) < WARM_UP) await new Promise((r) => setTimeout(r, 20));
    await call('DELETE', `/api/webhooks/${warm}`);
    await new Promise((r) => setTimeout(r, 200));
    // The pool's backends (PostgreSQL), for BENCH_WEBHOOK_CPU: every connection at once.
    const backendPids =
      CPU && backend.url
        ? [
            ...new Set(
              (
                await Promise.all(
                  Array.from({ length: 20 }, () =>
                    sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(bench.database.db),
                  ),
                )
              ).map((r) => r.rows[0]!.pid),
            ),
          ]
        : [];
    const name = `webhooks ${backend.name}`;
    const fanRows = await fanOut({ backend, log, call, adjust, receiver, backendPids });
    if (ONLY_FAN_OUT) return fanRows.map((r) => ({ ...r, benchmark: `${name}: ${r.benchmark}` }));
    log(`  ${backend.name}: ${ROUNDS} rounds of ${WRITES} writes without and with an endpoint receiving them...`);
    const seconds = { without: 0, with: 0 };
    const ratios: number[] = [];
    let delivered = { messages: 0, seconds: 0 };
    let behindAtEnd = 0;
    let sentTwice = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const phases = round % 2 === 0 ? (['without', 'with'] as const) : (['with', 'without'] as const);
      const perSecond = { without: 0, with: 0 };
      let hook = '';
      for (const phase of phases) {
        if (phase === 'with') {
          await receiver.nextPhase();
          hook = (await call('POST', '/api/webhooks', { url: receiver.url, eventTypes: ['stock.adjusted'] })).endpoint
            .id;
        }
        const started = performance.now();
        const cpuBefore = CPU ? cpuNow(receiver.tid, backendPids) : null;
        const from = process.hrtime.bigint() / 1000n;
        const result = await load(WRITES, CONCURRENCY, adjust);
        // The phase's span on the monotonic clock in µs (a --cpu-prof profile's timestamps).
        if (cpuBefore)
          log(
            `      ${phase} (${from}-${process.hrtime.bigint() / 1000n} µs): CPU ms per write: ${cpuPerWrite(cpuBefore, cpuNow(receiver.tid, backendPids), WRITES)}`,
          );
        seconds[phase] += WRITES / result.perSecond;
        perSecond[phase] = result.perSecond;
        if (phase === 'with') {
          behindAtEnd = Math.max(behindAtEnd, WRITES - (await receiver.arrived()));
          while ((await receiver.arrived()) < WRITES) await new Promise((r) => setTimeout(r, 20));
          delivered = {
            messages: delivered.messages + WRITES,
            seconds: delivered.seconds + (performance.now() - started) / 1000,
          };
          sentTwice += (await receiver.results()).sentTwice;
          await call('DELETE', `/api/webhooks/${hook}`);
          // Its run stops at the deliverer's next scan (a few ms): not one more send from it in the next phase.
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      ratios.push(perSecond.with / perSecond.without);
      log(
        `    round ${round + 1}: ${fmt(perSecond.without)} / ${fmt(perSecond.with)} writes/s (x${fmt(perSecond.with / perSecond.without, 2)})`,
      );
    }
    const without = { perSecond: (ROUNDS * WRITES) / seconds.without };
    const withHooks = { perSecond: (ROUNDS * WRITES) / seconds.with };
    const deliveredPerSecond = delivered.messages / delivered.seconds;
    ratios.sort((x, y) => x - y);
    // Catch-up with no writes: what delivery alone costs the app's main thread per message
    // (on PGlite, requests and the database run there), away from the write load's noise.
    // An endpoint replayed from before CATCH_UP writes made while none existed.
    const mark = (await call('POST', '/api/webhooks', { url: receiver.url, eventTypes: ['stock.adjusted'] })).endpoint;
    await call('DELETE', `/api/webhooks/${mark.id}`);
    // As after each "with" phase: not one send of the deleted endpoint's run among these writes
    // (its messages would then count as sent twice, not as arrivals, in the catch-up).
    await new Promise((r) => setTimeout(r, 200));
    await receiver.nextPhase();
    await load(CATCH_UP, CONCURRENCY, adjust);
    const replayed = (await call('POST', '/api/webhooks', { url: receiver.url, eventTypes: ['stock.adjusted'] }))
      .endpoint.id;
    const catchUpCpu = cpuNow(receiver.tid, backendPids);
    const catchUpStarted = performance.now();
    await call('POST', `/api/webhooks/${replayed}/replay`, { cursor: mark.cursor });
    const catchUpDeadline = Date.now() + 60_000;
    while ((await receiver.arrived()) < CATCH_UP && Date.now() < catchUpDeadline)
      await new Promise((r) => setTimeout(r, 5));
    const caughtUp = await receiver.arrived();
    const catchUpSeconds = (performance.now() - catchUpStarted) / 1000;
    const catchUpMainMs = (cpuNow(receiver.tid, backendPids).main! - catchUpCpu.main!) / 1e6;
    if (CPU)
      log(
        `      catch-up: CPU ms per message: ${cpuPerWrite(catchUpCpu, cpuNow(receiver.tid, backendPids), CATCH_UP)}`,
      );
    await call('DELETE', `/api/webhooks/${replayed}`);
    await new Promise((r) => setTimeout(r, 200));
    await call('POST', '/api/webhooks', { url: receiver.url, eventTypes: ['stock.adjusted'] });

    log(`  ${backend.name}: ${STEADY_RATE} events/s for ${STEADY_SECONDS} s...`);
    await receiver.nextPhase();
    const total = STEADY_RATE * STEADY_SECONDS;
    const t0 = performance.now();
    const sends: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = t0 + (i * 1000) / STEADY_RATE;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      sends.push(adjust(i));
    }
    await Promise.all(sends);
    const deadline = Date.now() + 60_000;
    while ((await receiver.arrived()) < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const steady = await receiver.results();
    const lags = steady.lags.sort((a, b) => a - b);
    return [
      ...fanRows.map((r) => ({ ...r, benchmark: `${name}: ${r.benchmark}` })),
      { benchmark: `${name}: adjustments/s without webhooks`, result: fmt(without.perSecond), target: '(baseline)' },
      {
        benchmark: `${name}: adjustments/s with an endpoint`,
        result: `${fmt(withHooks.perSecond)} (x${fmt(withHooks.perSecond / without.perSecond, 2)}; rounds x${fmt(ratios[0]!, 2)}-${fmt(ratios[ratios.length - 1]!, 2)})`,
        target: '>= 0.9 x baseline',
      },
      {
        benchmark: `${name}: delivered/s (writes + catch-up)`,
        result: `${fmt(deliveredPerSecond)} (${fmt(behindAtEnd)} behind at most as writes ended; ${sentTwice} sent twice)`,
        target: '-',
      },
      {
        benchmark: `${name}: catch-up of ${fmt(CATCH_UP)} messages, no writes`,
        result: `${fmt(caughtUp / catchUpSeconds)}/s, main thread ${fmt((catchUpMainMs * 1000) / caughtUp)} µs CPU per message (${fmt(caughtUp)} arrived)`,
        target: '-',
      },
      {
        benchmark: `${name}: lag at ${STEADY_RATE} events/s p50 / p99`,
        result: `${fmt(percentile(lags, 50))} / ${fmt(percentile(lags, 99))} ms (${lags.length}/${total} arrived, ${steady.sentTwice} sent twice)`,
        target: 'p99 <= 1000 ms',
      },
    ];
  } finally {
    await app.close();
    await receiver.close();
    await bench.close();
  }
}

export async function webhookBench(log: (s: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  const only = process.env.BENCH_BACKEND; // pglite or postgres: one backend
  for (const backend of benchBackends())
    if (!only || backend.name === only) rows.push(...(await benchOn(backend, log)));
  return rows;
}

type FanMode = 'none' | 'endpoints';

interface FanSample {
  mode: FanMode;
  messages: number;
  /** Main thread's CPU in the phase, ms (writes and delivery; 'none': writes alone). */
  mainMs: number;
  otherMs: number;
  seconds: number;
  loopP50: number;
  loopP99: number;
  adjustP99: number;
  lagP99: number;
  load: number;
}

interface FanContext {
  backend: BenchBackend;
  log: (s: string) => void;
  call: (method: 'POST' | 'GET' | 'DELETE', url: string, payload?: unknown) => Promise<any>;
  adjust: (i: number) => Promise<void>;
  receiver: BenchReceiver;
  backendPids: number[];
}

/**
 * FAN_RATE adjustments a second for FAN_SECONDS, each delivered to FAN_ENDPOINTS endpoints,
 * and with no endpoint, alternating in rounds. Per phase: the main thread's CPU per message
 * delivered (the writes' included; without endpoints, per write), the app's event-loop delay
 * p50/p99 and the adjust requests' latency p99 meanwhile (what the app's users notice), the
 * delivery lag p99, and the load average. (Commit 30be196 has this phase with a sender
 * thread beside it, for the comparison in docs/benchmarks.md.)
 */
async function fanOut(ctx: FanContext): Promise<Row[]> {
  const { log } = ctx;
  const modes: FanMode[] = ['none', 'endpoints'];
  const samples: Array<FanSample & { mainUs: number; otherUs: number }> = [];
  log(
    `  ${ctx.backend.name}: fan-out, ${FAN_ROUNDS} rounds of ${FAN_RATE} events/s for ${FAN_SECONDS} s to ${FAN_ENDPOINTS} endpoints, and without...`,
  );
  await fanPhase(ctx, 'endpoints', 2);
  for (let round = 0; round < FAN_ROUNDS; round++) {
    for (const mode of modes.map((_, i) => modes[(i + round) % modes.length]!)) {
      const sample = await fanPhase(ctx, mode);
      // Per message delivered (the phase's writes included); without endpoints, per write.
      const per = sample.messages || FAN_RATE * FAN_SECONDS;
      const mainUs = (sample.mainMs * 1000) / per;
      const otherUs = (sample.otherMs * 1000) / per;
      samples.push({ ...sample, mainUs, otherUs });
      log(
        `    round ${round + 1} ${mode.padEnd(9)}: ${fmt(sample.messages)} messages in ${fmt(sample.seconds, 1)} s, main thread ${fmt(sample.mainMs)} ms CPU (${fmt(mainUs)} us per ${sample.messages ? 'message' : 'write'}), ` +
          `other threads ${fmt(otherUs)} us, loop delay p50/p99 ${fmt(sample.loopP50, 1)}/${fmt(sample.loopP99, 1)} ms, adjust p99 ${fmt(sample.adjustP99, 1)} ms, delivery lag p99 ${fmt(sample.lagP99)} ms, load ${fmt(sample.load, 1)}`,
      );
    }
  }
  const range = (values: number[], digits = 0) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${fmt(percentile(sorted, 50), digits)} (${fmt(sorted[0]!, digits)}-${fmt(sorted[sorted.length - 1]!, digits)})`;
  };
  const of = (mode: FanMode) => samples.filter((s) => s.mode === mode);
  const loads = samples.map((s) => s.load);
  const rows: Row[] = [];
  for (const mode of modes) {
    const s = of(mode);
    const what = mode === 'none' ? 'no endpoint' : 'endpoints';
    rows.push({
      benchmark: `fan-out ${FAN_RATE}/s x ${FAN_ENDPOINTS}, ${what}: main CPU us per ${mode === 'none' ? 'write' : 'message'}; loop delay p50 / p99; adjust p99; lag p99`,
      result: `${range(s.map((x) => x.mainUs))}; ${range(
        s.map((x) => x.loopP50),
        1,
      )} / ${range(
        s.map((x) => x.loopP99),
        1,
      )} ms; ${range(
        s.map((x) => x.adjustP99),
        1,
      )} ms; ${mode === 'none' ? '-' : `${range(s.map((x) => x.lagP99))} ms`} (load ${fmt(Math.min(...loads), 1)}-${fmt(Math.max(...loads), 1)})`,
      target: '-',
    });
  }
  return rows;
}

async function fanPhase(ctx: FanContext, mode: FanMode, seconds = FAN_SECONDS): Promise<FanSample> {
  const { call, adjust, receiver } = ctx;
  await receiver.nextPhase();
  const hooks: string[] = [];
  if (mode !== 'none')
    for (const url of receiver.urls.slice(0, FAN_ENDPOINTS))
      hooks.push((await call('POST', '/api/webhooks', { url, eventTypes: ['stock.adjusted'] })).endpoint.id);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const before = cpuNow(receiver.tid, ctx.backendPids);
  const total = FAN_RATE * seconds;
  const latencies: number[] = [];
  const t0 = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = t0 + (i * 1000) / FAN_RATE - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const started = performance.now();
    sends.push(adjust(i).then(() => void latencies.push(performance.now() - started)));
  }
  await Promise.all(sends);
  const expected = total * hooks.length;
  const deadline = Date.now() + 120_000;
  while ((await receiver.arrived()) < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const after = cpuNow(receiver.tid, ctx.backendPids);
  delay.disable();
  const load = loadavg()[0]!;
  const { lags } = await receiver.results();
  for (const id of hooks) await call('DELETE', `/api/webhooks/${id}`);
  // The deleted endpoints' runs stop at the next scan: nothing of theirs in the next phase.
  await new Promise((r) => setTimeout(r, 300));
  return {
    mode,
    messages: lags.length,
    mainMs: (after.main! - before.main!) / 1e6,
    otherMs: (after.otherThreads! - before.otherThreads!) / 1e6,
    seconds: (performance.now() - t0) / 1000,
    loopP50: delay.percentile(50) / 1e6,
    loopP99: delay.percentile(99) / 1e6,
    adjustP99: percentile(
      latencies.sort((a, b) => a - b),
      99,
    ),
    lagP99: percentile(
      lags.sort((a, b) => a - b),
      99,
    ),
    load,
  };
}
