// BENCH_TRACE=1: where a batch of adjustments spends its time in the command-path bench's
// server (batch sizes, lanes in use, queue wait, lock-and-decide, the append statement, the
// transaction; each kind of round trip to PostgreSQL; event-loop use), printed to stderr every
// 2.5 s. Wraps the group commit's steps and the pg client; changes nothing they do, except
// that BENCH_LANES etc. (below) override the group commit's settings, for command-path-ab.ts.
import { performance } from 'node:perf_hooks';
import { BatchedCommandHandler } from '../../server/eventstore/batched-commands.js';
import { PreparedStatements } from '../../server/eventstore/prepared-statements.js';

type Fn = (...args: any[]) => Promise<any>;
const stats = {
  batches: 0,
  commands: 0,
  wait: 0,
  together: 0,
  decide: 0,
  append: 0,
  maxBatch: 0,
  inFlight: 0,
  inFlightSum: 0,
};
const proto = BatchedCommandHandler.prototype as unknown as Record<string, Fn>;

function wrap(target: Record<string, Fn>, name: string, measure: (ms: number, args: any[]) => void) {
  const original = target[name]!;
  target[name] = async function (this: unknown, ...args: any[]) {
    const started = performance.now();
    try {
      return await original.apply(this, args);
    } finally {
      measure(performance.now() - started, args);
    }
  };
}

const runOriginal = proto.run!;
proto.run = async function (this: unknown, batch: Array<{ enqueuedAt: number }>) {
  const now = performance.now();
  stats.batches++;
  stats.commands += batch.length;
  stats.maxBatch = Math.max(stats.maxBatch, batch.length);
  stats.inFlightSum += ++stats.inFlight;
  for (const pending of batch) stats.wait += now - pending.enqueuedAt;
  try {
    return await runOriginal.call(this, batch);
  } finally {
    stats.inFlight--;
  }
};
wrap(proto, 'together', (ms) => (stats.together += ms));
wrap(proto, 'decideAndAppend', (ms) => (stats.decide += ms));
wrap(PreparedStatements.prototype as unknown as Record<string, Fn>, 'execute', (ms) => (stats.append += ms));

let elu = performance.eventLoopUtilization();
setInterval(() => {
  if (stats.batches === 0) return;
  const now = performance.eventLoopUtilization();
  const used = performance.eventLoopUtilization(now, elu).utilization;
  elu = now;
  const b = stats.batches;
  console.error(
    `trace: ${stats.commands} adjustments in ${b} batches (mean ${(stats.commands / b).toFixed(1)}, max ${stats.maxBatch}, ` +
      `lanes busy ${(stats.inFlightSum / b).toFixed(1)}); per batch ms: transaction ${(stats.together / b).toFixed(1)}, ` +
      `lock+decide+append ${(stats.decide / b).toFixed(1)}, append ${(stats.append / b).toFixed(1)}; ` +
      `queue wait per adjustment ${(stats.wait / stats.commands).toFixed(1)} ms; event loop ${(used * 100).toFixed(0)}% busy`,
  );
  Object.assign(stats, {
    batches: 0,
    commands: 0,
    wait: 0,
    together: 0,
    decide: 0,
    append: 0,
    maxBatch: 0,
    inFlightSum: 0,
  });
}, 2500).unref();

// BENCH_LANES / BENCH_OVERLAP / BENCH_OVERLAP_MS / BENCH_MAX_BATCH: try other group-commit settings without editing the app.
const { GroupCommitter } = await import('../../server/eventstore/group-commit.js');
const gc = GroupCommitter.prototype as unknown as { pump(): void };
const pump = gc.pump;
gc.pump = function (this: { options: Record<string, number> }) {
  if (process.env.BENCH_LANES) this.options.lanes = Number(process.env.BENCH_LANES);
  if (process.env.BENCH_OVERLAP) this.options.overlapAt = Number(process.env.BENCH_OVERLAP);
  if (process.env.BENCH_MAX_BATCH) this.options.maxBatch = Number(process.env.BENCH_MAX_BATCH);
  if (process.env.BENCH_OVERLAP_MS) this.options.overlapAfterMs = Number(process.env.BENCH_OVERLAP_MS);
  return pump.call(this);
};

// Round trips by kind (begin, commit, the lock statement, the append), timed at the pg client.
const pg = (await import('pg')).default;
const byKind = new Map<string, { n: number; ms: number }>();
const query = pg.Client.prototype.query as (...args: any[]) => any;
pg.Client.prototype.query = function (this: unknown, ...args: any[]) {
  const text = typeof args[0] === 'string' ? args[0] : (args[0]?.text ?? '');
  const kind =
    /^\s*(begin|commit|rollback|execute|prepare)/i.exec(text)?.[1]?.toLowerCase() ??
    (/for update/.test(text) ? 'lock' : 'other');
  const started = performance.now();
  const result = query.apply(this, args);
  if (result && typeof result.then === 'function') {
    result.then(
      () => {
        const s = byKind.get(kind) ?? { n: 0, ms: 0 };
        s.n++;
        s.ms += performance.now() - started;
        byKind.set(kind, s);
      },
      () => {},
    );
  }
  return result;
} as typeof pg.Client.prototype.query;
setInterval(() => {
  if (!byKind.size) return;
  console.error(
    'trace round trips: ' + [...byKind].map(([k, s]) => `${k} ${s.n}x ${(s.ms / s.n).toFixed(2)} ms`).join(', '),
  );
  byKind.clear();
}, 2500).unref();
