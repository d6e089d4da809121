// How an endpoint run sends (endpoint-run.ts): a stream's messages go out one at a time in
// log order, streams side by side up to the in-flight limit; a refusal (4xx) is an answer
// and its stream goes on; a retryable failure (or `stop`) starts nothing more, lets what is
// in flight be answered, and writes down as the cursor the oldest message not delivered.
import { describe, expect, it } from 'vitest';
import type { Attempt, Message } from '../../server/webhooks/send-webhook.js';
import { cursorOf, fakeEndpointRun, logEvent, OK, START, untilTrue } from '../helpers/fake-endpoint-run.js';

const busy: Attempt = {
  ok: false,
  retryable: true,
  status: 503,
  latencyMs: 1,
  retryAfterMs: null,
  error: 'Receiver answered 503',
};
const refused: Attempt = {
  ok: false,
  retryable: false,
  status: 410,
  latencyMs: 1,
  retryAfterMs: null,
  error: 'Receiver answered 410',
};

/** A run whose sends wait until the test answers them. */
function setUp(inFlight: number) {
  const open = new Map<string, (attempt: Attempt) => void>();
  const started: string[] = [];
  const fake = fakeEndpointRun((m: Message) => {
    started.push(m.id);
    return new Promise((resolve) => open.set(m.id, resolve));
  }, inFlight);
  const answer = async (id: string, attempt: Attempt) => {
    open.get(id)!(attempt);
    open.delete(id);
    await new Promise((r) => setImmediate(r));
  };
  return { ...fake, started, answer, open };
}

describe('an endpoint run sending', () => {
  it("sends a stream's messages one at a time in order, streams side by side up to the limit", async () => {
    const { run, append, started, answer, moved } = setUp(2);
    append(1, 4, ['a', 'a', 'b', 'c']);
    const done = run.run();
    await untilTrue(() => started.length === 2, 'the first sends');
    expect(started).toEqual(['e1', 'e3']);
    await answer('e3', OK);
    expect(started).toEqual(['e1', 'e3', 'e4']);
    await answer('e1', OK);
    expect(started).toEqual(['e1', 'e3', 'e4', 'e2']);
    append(5, 6, ['a', 'd']);
    run.poke();
    await answer('e4', OK);
    await untilTrue(() => started.length === 5, 'the next read');
    expect(started).toEqual(['e1', 'e3', 'e4', 'e2', 'e6']);
    // A refusal (4xx other than 429) is an answer: the stream goes on.
    await answer('e2', refused);
    expect(started).toEqual(['e1', 'e3', 'e4', 'e2', 'e6', 'e5']);
    await answer('e5', OK);
    await answer('e6', OK);
    run.stop();
    await done;
    expect(moved()).toEqual(cursorOf(logEvent(6)));
  });

  it('holds on a retryable failure: nothing more starts, in-flight ones are answered, the cursor stays before the failed one', async () => {
    const { run, append, started, answer, moves } = setUp(2);
    append(1, 5, ['a', 'a', 'b', 'b', 'c']);
    const done = run.run();
    await untilTrue(() => started.length === 2, 'the first sends');
    await answer('e1', busy);
    // e2 waits behind e1, e4 behind e3 (in flight), e5 for a slot: none of them goes.
    expect(started).toEqual(['e1', 'e3']);
    await answer('e3', OK);
    await done;
    expect(started).toEqual(['e1', 'e3']);
    const last = moves.at(-1)!;
    expect(last.cursor).toEqual(START);
    expect(last.release).toBe(true);
    expect(last.nextAttemptAt).not.toBeNull();
    expect(moves.flatMap((m) => m.rows).map((r) => [r.message_id, r.status])).toEqual(
      expect.arrayContaining([
        ['e1', 'retrying'],
        ['e3', 'delivered'],
      ]),
    );
  });

  it('stop keeps what is in flight and sends nothing more', async () => {
    const { run, append, started, answer, moved } = setUp(1);
    append(1, 3, ['a', 'a', 'b']);
    const done = run.run();
    await untilTrue(() => started.length === 1, 'the first send');
    run.stop();
    await answer('e1', OK);
    await done;
    expect(started).toEqual(['e1']);
    expect(moved()).toEqual(cursorOf(logEvent(1)));
  });
});
