// An endpoint run takes the feed dispatcher's batches instead of reading the log again, but
// only when a batch carries on from where the run has read: overlaps are cut, a gap (or a
// batch without its starting cursor) sends it to the log, and a commit whose batch does not
// come is read from the log. Whatever the mix, every event is sent once, in order.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EndpointRun } from '../../server/webhooks/endpoint-run.js';
import { cursorOf, fakeEndpointRun, logEvent as event, OK, untilTrue } from '../helpers/fake-endpoint-run.js';

const runs: EndpointRun[] = [];
afterEach(() => {
  for (const run of runs.splice(0)) run.stop();
});

/** A run whose receiver answers at once (the `hold` message: when released). */
function setUp(hold?: { id: string; until: Promise<void> }) {
  const sent: string[] = [];
  const fake = fakeEndpointRun(async (message) => {
    sent.push(message.id);
    if (message.id === hold?.id) await hold.until;
    return OK;
  });
  runs.push(fake.run);
  return { ...fake, sent };
}

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `e${from + i}`);

describe('an endpoint run fed by the feed dispatcher', () => {
  it('takes batches that carry on from its read, cuts overlaps, and reads the log after a gap', async () => {
    const { run, append, reads, sent, moved } = setUp();
    append(1, 3);
    const done = run.run();
    await untilTrue(() => sent.length === 3, 'the first events, read from the log');
    const readsAtStart = reads.length;

    // Carries on from e3: taken as it is, the log is not read.
    run.feed(append(4, 6), cursorOf(event(3)));
    await untilTrue(() => sent.length === 6, 'the fed batch');
    // Overlaps what the run has (e5, e6): only e7 and e8 are new.
    run.feed([event(5), event(6), ...append(7, 8)], cursorOf(event(4)));
    await untilTrue(() => sent.length === 8, 'the overlapping batch');
    // Already had all of it: nothing.
    run.feed([event(7), event(8)], cursorOf(event(6)));
    expect(reads.length).toBe(readsAtStart);

    // A gap: e9 and e10 are not in the batch, so the run reads the log for them.
    append(9, 10);
    run.feed(append(11, 12), cursorOf(event(10)));
    await untilTrue(() => sent.length === 12, 'the events around the gap');
    expect(reads.length).toBeGreaterThan(readsAtStart);
    // A batch whose start is unknown: the log again.
    const before = reads.length;
    run.feed(append(13, 13), undefined);
    await untilTrue(() => sent.length === 13, 'the batch without a start');
    expect(reads.length).toBeGreaterThan(before);

    expect(sent).toEqual(ids(1, 13));
    run.stop();
    await done;
    expect(moved()).toEqual(cursorOf(event(13)));
  });

  it('reads on after a read cut short by READ_AHEAD, though it filled what it asked for', async () => {
    // e1 is answered late: everything of its stream waits behind it, and the run reads up to
    // READ_AHEAD (1,000) then stops. Once e1 is answered, the oldest undelivered moves one
    // message at a time, so the next reads ask for a few events and get all they asked for.
    let release = () => undefined as void;
    const until = new Promise<void>((resolve) => (release = resolve));
    const { run, append, sent } = setUp({ id: 'e1', until });
    append(1, 1500);
    const done = run.run();
    // e1 and the other streams' messages among the first 1,000 (666 of them): then it stops reading.
    await untilTrue(() => sent.length >= 667, "the other streams' first messages");
    await new Promise((r) => setTimeout(r, 50));
    expect(sent.length).toBe(667);
    release();
    await untilTrue(() => sent.length === 1500, 'every message, without a poke');
    run.stop();
    await done;
  });

  it('reads the log itself when a commit is not followed by a batch, or when no dispatcher runs', async () => {
    // On a fake clock, so "waited" and "at once" are told apart by the run's own timers, not
    // by how busy the machine is.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    try {
      const { run, append, sent } = setUp();
      append(1, 1);
      const done = run.run();
      await fakeMsUntil(() => sent.length === 1, 'the first event');
      // The dispatcher runs, but its batch with e2 never comes: the run waits for it a while
      // (FEED_WAIT_MS, 250 ms), then reads the log.
      append(2, 2);
      run.committed(true);
      await vi.advanceTimersByTimeAsync(200);
      expect(sent, 'read before the batch had its chance').toEqual(ids(1, 1));
      await fakeMsUntil(() => sent.length === 2, 'the event of the late batch');
      // No dispatcher in this process: a commit is read at once, with no time passing (once
      // the 20 ms the run keeps between two reads of the log have gone by).
      await vi.advanceTimersByTimeAsync(50);
      append(3, 3);
      run.committed(false);
      expect(
        await fakeMsUntil(() => sent.length === 3, 'the event with no dispatcher'),
        'ms before the commit was read',
      ).toBe(0);
      expect(sent).toEqual(ids(1, 3));
      run.stop();
      await done;
    } finally {
      vi.useRealTimers();
    }
  });
});

/** On the fake clock: lets due work run, then moves 1 ms at a time until `condition` holds; the ms it took. */
async function fakeMsUntil(condition: () => boolean, what: string): Promise<number> {
  for (let ms = 0; ms <= 3000; ms++) {
    await vi.advanceTimersByTimeAsync(ms === 0 ? 0 : 1);
    if (condition()) return ms;
  }
  throw new Error(`${what} did not come within 3 s on the fake clock`);
}
