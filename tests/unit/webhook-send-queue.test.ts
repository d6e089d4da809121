// The send queue of one endpoint run (send-queue.ts): a stream's messages go out
// one at a time in the order added, streams side by side up to the in-flight limit, and a
// retryable failure (or `hold`) starts nothing more and answers the unsent ones with null.
import { describe, expect, it } from 'vitest';
import { SendQueue } from '../../server/webhooks/send-queue.js';
import type { QueuedMessage } from '../../server/webhooks/sender-thread.js';
import type { Attempt } from '../../server/webhooks/send-webhook.js';

const ok: Attempt = { ok: true, retryable: false, status: 200, latencyMs: 1, retryAfterMs: null, error: null };
const busy: Attempt = { ok: false, retryable: true, status: 503, latencyMs: 1, retryAfterMs: null, error: 'Receiver answered 503' };
const refused: Attempt = { ok: false, retryable: false, status: 410, latencyMs: 1, retryAfterMs: null, error: 'Receiver answered 410' };

/** A queue whose sends wait until the test answers them. */
function setUp(inFlight: number) {
  const open = new Map<number, (attempt: Attempt) => void>();
  const started: number[] = [];
  const answers: Array<[number, number | null]> = [];
  const queue = new SendQueue<QueuedMessage>(inFlight, (m) => {
    started.push(m.n);
    return new Promise((resolve) => open.set(m.n, resolve));
  }, (m, attempt) => answers.push([m.n, attempt?.status ?? null]));
  const answer = async (n: number, attempt: Attempt) => {
    open.get(n)!(attempt);
    open.delete(n);
    await new Promise((r) => setImmediate(r));
  };
  return { queue, started, answers, answer, open };
}
const msg = (n: number, stream: string): QueuedMessage => ({ n, id: `e${n}`, stream, body: '{}' });

describe('a run\'s send queue', () => {
  it('sends a stream\'s messages one at a time in order, streams side by side up to the limit', async () => {
    const { queue, started, answers, answer } = setUp(2);
    queue.add([msg(1, 'a'), msg(2, 'a'), msg(3, 'b'), msg(4, 'c')]);
    expect(started).toEqual([1, 3]);
    await answer(3, ok);
    expect(started).toEqual([1, 3, 4]);
    await answer(1, ok);
    expect(started).toEqual([1, 3, 4, 2]);
    queue.add([msg(5, 'a'), msg(6, 'd')]);
    await answer(4, ok);
    expect(started).toEqual([1, 3, 4, 2, 6]);
    // A refusal (4xx other than 429) is an answer: the stream goes on.
    await answer(2, refused);
    expect(started).toEqual([1, 3, 4, 2, 6, 5]);
    await answer(5, ok);
    await answer(6, ok);
    expect(answers).toEqual([[3, 200], [1, 200], [4, 200], [2, 410], [5, 200], [6, 200]]);
    expect(queue.idle).toBe(true);
  });

  it('holds on a retryable failure: nothing more starts, the unsent come back as null, in-flight ones are answered', async () => {
    const { queue, started, answers, answer } = setUp(2);
    queue.add([msg(1, 'a'), msg(2, 'a'), msg(3, 'b'), msg(4, 'b'), msg(5, 'c')]);
    await answer(1, busy);
    expect(queue.held).toBe(true);
    expect(started).toEqual([1, 3]);
    // e2 waits behind e1, e4 behind e3 (in flight), e5 for a slot: none of them went.
    expect(answers).toEqual([[1, 503], [2, null], [4, null], [5, null]]);
    expect(queue.idle).toBe(false);
    await answer(3, ok);
    expect(answers.at(-1)).toEqual([3, 200]);
    expect(queue.idle).toBe(true);
    // Added after the hold: not sent.
    queue.add([msg(6, 'a')]);
    expect(answers.at(-1)).toEqual([6, null]);
    expect(started).toEqual([1, 3]);
  });

  it('hold keeps what is in flight and answers the rest as not sent', async () => {
    const { queue, started, answers, answer } = setUp(1);
    queue.add([msg(1, 'a'), msg(2, 'a'), msg(3, 'b')]);
    queue.hold();
    expect(answers).toEqual([[2, null], [3, null]]);
    await answer(1, ok);
    expect(answers.at(-1)).toEqual([1, 200]);
    expect(started).toEqual([1]);
    expect(queue.idle).toBe(true);
  });
});
