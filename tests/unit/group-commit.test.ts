// The group commit's queue, without a database: what goes into which batch, when.
import { describe, expect, it, vi } from 'vitest';
import { GroupCommitter, ServerBusyError, type Pending } from '../../server/eventstore/group-commit.js';

interface Run {
  batch: Array<{ stream: string; command: number }>;
  finish(): void;
}

/** A committer whose batches finish only when the test says so. */
function harness(
  options: {
    lanes?: number;
    maxBatch?: number;
    maxQueued?: number;
    maxWaitMs?: number;
    overlapAt?: number;
    now?: () => number;
  } = {},
) {
  const runs: Run[] = [];
  const committer = new GroupCommitter<number, number>({
    lanes: options.lanes ?? 1,
    maxBatch: options.maxBatch ?? 64,
    maxQueued: options.maxQueued ?? 1000,
    maxWaitMs: options.maxWaitMs ?? 60_000,
    ...(options.overlapAt ? { overlapAt: options.overlapAt } : {}),
    ...(options.now ? { now: options.now } : {}),
    run: (batch: Pending<number, number>[]) =>
      new Promise<void>((resolve) => {
        runs.push({
          batch: batch.map((p) => ({ stream: p.stream, command: p.command })),
          finish() {
            for (const p of batch) p.resolve(p.command * 10);
            resolve();
          },
        });
      }),
  });
  return { committer, runs };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('group commit', () => {
  it('starts a lone command at once, in its own batch', async () => {
    const { committer, runs } = harness();
    const answer = committer.submit('item-a', 1);
    await turn();
    expect(runs.map((r) => r.batch)).toEqual([[{ stream: 'item-a', command: 1 }]]);
    runs[0]!.finish();
    expect(await answer).toBe(10);
  });

  it('puts what arrives while a stream is in flight into the next batch, in order', async () => {
    const { committer, runs } = harness();
    const answers = [committer.submit('item-a', 1)];
    await turn();
    answers.push(committer.submit('item-a', 2), committer.submit('item-a', 3), committer.submit('item-a', 4));
    await turn();
    expect(runs).toHaveLength(1); // the stream is busy: the others wait
    runs[0]!.finish();
    await turn();
    await turn();
    expect(runs[1]!.batch.map((c) => c.command)).toEqual([2, 3, 4]);
    runs[1]!.finish();
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40]);
  });

  it('never runs two batches of one stream at once, but other streams use free lanes', async () => {
    const { committer, runs } = harness({ lanes: 2 });
    void committer.submit('item-a', 1);
    await turn();
    void committer.submit('item-a', 2);
    void committer.submit('item-b', 3);
    await turn();
    expect(runs.map((r) => r.batch.map((c) => c.command))).toEqual([[1], [3]]);
    runs[0]!.finish();
    await turn();
    await turn();
    expect(runs.map((r) => r.batch.map((c) => c.command))).toEqual([[1], [3], [2]]);
  });

  it('with every lane busy, one batch carries several streams', async () => {
    const { committer, runs } = harness({ lanes: 1 });
    void committer.submit('item-a', 1);
    await turn();
    for (const [i, stream] of ['item-b', 'item-c', 'item-a', 'item-d'].entries()) void committer.submit(stream, i + 2);
    await turn();
    runs[0]!.finish();
    await turn();
    await turn();
    expect(runs[1]!.batch).toEqual([
      { stream: 'item-b', command: 2 },
      { stream: 'item-c', command: 3 },
      { stream: 'item-a', command: 4 },
      { stream: 'item-d', command: 5 },
    ]);
  });

  it('runs a second batch beside one in flight only once overlapAt commands wait for it', async () => {
    let now = 0;
    const { committer, runs } = harness({ lanes: 2, overlapAt: 3, now: () => now });
    void committer.submit('item-a', 1);
    await turn();
    void committer.submit('item-b', 2);
    void committer.submit('item-c', 3);
    await turn();
    expect(runs).toHaveLength(1); // two waiting: not worth a second transaction yet
    void committer.submit('item-d', 4);
    await turn();
    expect(runs.map((r) => r.batch.map((c) => c.command))).toEqual([[1], [2, 3, 4]]);
    void committer.submit('item-e', 5);
    await turn();
    runs[0]!.finish();
    await turn();
    await turn();
    expect(runs).toHaveLength(2); // one still in flight: the lone command waits for it
    runs[1]!.finish();
    await turn();
    await turn();
    expect(runs.map((r) => r.batch.map((c) => c.command))).toEqual([[1], [2, 3, 4], [5]]);
    // ...but not for a transaction held up longer than overlapAfterMs (20 ms).
    void committer.submit('item-f', 6);
    await turn();
    now = 25;
    // Its check is a real 20 ms timer: waited for, not raced (a loaded machine runs it late).
    await vi.waitFor(() => expect(runs.map((r) => r.batch.map((c) => c.command))).toEqual([[1], [2, 3, 4], [5], [6]]), {
      timeout: 5_000,
    });
  });

  it('bounds a batch by maxBatch; the rest go in the next', async () => {
    const { committer, runs } = harness({ maxBatch: 3 });
    void committer.submit('item-a', 0);
    await turn();
    for (let i = 1; i <= 5; i++) void committer.submit('item-a', i);
    runs[0]!.finish();
    await turn();
    await turn();
    expect(runs[1]!.batch.map((c) => c.command)).toEqual([1, 2, 3]);
    runs[1]!.finish();
    await turn();
    await turn();
    expect(runs[2]!.batch.map((c) => c.command)).toEqual([4, 5]);
  });

  it('refuses with 503, writing nothing, when too many wait or one waited too long', async () => {
    let now = 0;
    const { committer, runs } = harness({ maxQueued: 2, maxWaitMs: 1000, now: () => now });
    void committer.submit('item-a', 1);
    await turn();
    const waiting = committer.submit('item-a', 2);
    const alsoWaiting = committer.submit('item-a', 3);
    await expect(committer.submit('item-a', 4)).rejects.toBeInstanceOf(ServerBusyError);
    now = 5000;
    runs[0]!.finish();
    await expect(waiting).rejects.toMatchObject({ status: 503 });
    await expect(alsoWaiting).rejects.toMatchObject({ status: 503 });
    expect(runs).toHaveLength(1);
  });

  it('a batch that throws rejects each of its commands', async () => {
    const committer = new GroupCommitter<number, number>({
      lanes: 1,
      maxBatch: 10,
      maxQueued: 10,
      maxWaitMs: 1000,
      run: async () => {
        throw new Error('database gone');
      },
    });
    await expect(Promise.all([committer.submit('s', 1), committer.submit('s', 2)])).rejects.toThrow('database gone');
  });
});
