// A screen that got the service worker's saved copy instead of the server's answer (the
// network too slow or gone: vite.config.ts marks such answers) reads again shortly, and shows
// the server's data once it answers. Before, it kept the old copy until an event came about
// the very thing shown, or until the next reconnect.
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, waitFor } from 'xstate';
import { indicatorState } from '../../client/app/shell/live-indicator.js';
import { ApiClient, onSavedCopyChange, SAVED_COPY_HEADER, showingSavedCopy } from '../../client/lib/api-client.js';
import { createLiveQueryMachine } from '../../client/lib/live-query.machine.js';

interface Stock {
  quantity: number;
}

const answer = (quantity: number, savedCopy: boolean) =>
  new Response(JSON.stringify({ quantity }), {
    status: 200,
    headers: { 'content-type': 'application/json', ...(savedCopy ? { [SAVED_COPY_HEADER]: '1' } : {}) },
  });

function stockScreen(answers: Response[]) {
  let asked = 0;
  const client = new ApiClient({
    fetch: (async () => {
      asked += 1;
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next;
    }) as typeof fetch,
    sleep: async () => undefined,
  });
  const machine = createLiveQueryMachine<Stock, null>({
    id: 'stock',
    load: async () => (await client.request<Stock>('GET', '/stock')).data,
    reduce: () => 'ignored',
    concerns: () => false,
    loadErrorMessage: 'Could not load',
    savedCopyRecheckMs: 20,
  }).provide({ actors: { feed: fromCallback(() => () => undefined) } });
  const actor = createActor(machine, { input: { params: null } });
  actor.start();
  return { actor, asked: () => asked };
}

describe('a live query answered with a saved copy', () => {
  it('reads again until the server answers, then keeps its data', async () => {
    const { actor, asked } = stockScreen([answer(10, true), answer(10, true), answer(12, false)]);
    await waitFor(actor, (s) => s.context.data?.quantity === 10);
    await waitFor(actor, (s) => s.context.data?.quantity === 12, { timeout: 2000 });
    expect(asked()).toBe(3);
    await new Promise((r) => setTimeout(r, 100));
    // The server's answer ends it: no more reads (a fourth would find no answer and fail).
    expect(asked()).toBe(3);
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
  });

  it('reads once when the server answered', async () => {
    const { actor, asked } = stockScreen([answer(7, false)]);
    await waitFor(actor, (s) => s.matches({ ready: 'idle' }));
    await new Promise((r) => setTimeout(r, 100));
    expect(actor.getSnapshot().context.data).toEqual({ quantity: 7 });
    expect(asked()).toBe(1);
  });
});

describe('the header while a saved copy is on screen', () => {
  it('says "Saved copy" from a saved answer until the server answers, and "Live" again after', async () => {
    const shown: string[] = [];
    const stop = onSavedCopyChange(() => shown.push(indicatorState('live', showingSavedCopy())));
    const { actor } = stockScreen([answer(10, false), answer(10, true), answer(10, true), answer(12, false)]);
    await waitFor(actor, (s) => s.context.data?.quantity === 10);
    expect(indicatorState('live', showingSavedCopy())).toBe('live');
    actor.send({ type: 'REFETCH' });
    await waitFor(actor, (s) => s.context.data?.quantity === 12, { timeout: 2000 });
    stop();
    // Two saved answers in a row change it once; the server's answer ends it.
    expect(shown).toEqual(['saved', 'live']);
    expect(showingSavedCopy()).toBe(false);
  });

  it("keeps the feed's own word when it is not live: offline says offline", () => {
    expect(indicatorState('offline', true)).toBe('offline');
    expect(indicatorState('connecting', true)).toBe('connecting');
    expect(indicatorState('live', false)).toBe('live');
  });
});
