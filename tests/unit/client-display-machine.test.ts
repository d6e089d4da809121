// The wall display machine with stand-in actors (no server, no socket): it fetches once
// after a burst of events, keeps its last snapshot while the server is away, and retries.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import type { DisplaySnapshot } from '../../shared/dashboard.js';
import type { FeedEvent } from '../../shared/realtime.js';
import type { DisplayEvent } from '../../client/features/display/display.machine.js';
import { displayMachine } from '../../client/features/display/display.machine.js';

type FeedOut = { type: 'FEED_EVENT'; event: FeedEvent } | { type: 'RESYNC' };

function feedEvent(type = 'StockAdjusted'): FeedEvent {
  return {
    type,
    stream: 'item-1',
    streamType: 'item',
    version: 2,
    data: { delta: -1, quantity: 1 },
    actor: { uid: null, name: 'x' },
    time: '',
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('wall display machine', () => {
  const snapshot = (storeName: string): DisplaySnapshot => ({
    generatedAt: '',
    storeName,
    alerts: [],
    alertCount: 0,
    categories: [],
    recentActivity: [],
    money: { currency: 'USD', locale: 'en-US' },
  });

  it('fetches once for a burst of events, keeps the last snapshot while the server is away, and retries by itself', async () => {
    vi.useFakeTimers();
    const answers: (() => Promise<DisplaySnapshot>)[] = [async () => snapshot('One')];
    let calls = 0;
    let feed: ((e: FeedOut) => void) | null = null;
    const actor = createActor(
      displayMachine.provide({
        actors: {
          load: fromPromise(async () => {
            calls += 1;
            return (answers.shift() ?? (async () => snapshot('Later')))();
          }),
          feed: fromCallback<FeedOut>(({ sendBack }) => {
            feed = sendBack;
            return () => undefined;
          }),
          keepFresh: fromCallback<DisplayEvent, { everyMs: number }>(() => () => undefined),
        },
      }),
    ).start();
    await vi.advanceTimersByTimeAsync(10);
    expect(actor.getSnapshot().context.snapshot?.storeName).toBe('One');

    answers.push(async () => {
      throw new Error('All retry attempts failed');
    });
    for (let i = 0; i < 5; i++) feed!({ type: 'FEED_EVENT', event: feedEvent() });
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(2);
    expect(actor.getSnapshot().matches('waiting')).toBe(true);
    expect(actor.getSnapshot().context.snapshot?.storeName).toBe('One');

    await vi.advanceTimersByTimeAsync(5_100);
    expect(calls).toBe(3);
    expect(actor.getSnapshot().context.snapshot?.storeName).toBe('Later');
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    actor.stop();
  });
});
