// The reads the router starts early for a returning user's first screen must be exactly the
// ones the pages then ask for (else the early read is wasted and the page waits as before),
// and the API client must take an early answer once, and only a good one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { firstScreenReads } from '../../client/app/first-screen-data.js';
import { api, ApiClient } from '../../client/lib/api-client.js';
import { earlyReadsParsed, readEarly, takeEarlyJson } from '../../client/lib/first-data.js';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { categoryPageMachine } from '../../client/features/inventory/category-page.machine.js';
import { categoryPaths } from '../../client/features/inventory/api.js';
import type { CategoryPageData } from '../../client/features/inventory/live-reducers.js';
import { dashboardApi } from '../../client/features/dashboard/api.js';
import { inventoryApi } from '../../client/features/inventory/api.js';

const CATEGORY = '0abd006c-fe8e-458f-992d-e7e8120d8d6c';

/** The GET paths a call makes through the app's API client. */
async function pathsOf(call: () => Promise<unknown>): Promise<string[]> {
  const get = vi.spyOn(api, 'get').mockResolvedValue(undefined as never);
  await call();
  const paths = get.mock.calls.map(([path]) => path);
  get.mockRestore();
  return paths;
}

describe('first screen reads', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('are what the Category page and the dashboard ask for first', async () => {
    const category = await pathsOf(() =>
      Promise.all([
        inventoryApi.category(CATEGORY),
        inventoryApi.categoryItems(CATEGORY, { q: '', sort: 'name', order: 'asc', page: 1 }),
      ]),
    );
    expect(firstScreenReads(`/inventory/category/${CATEGORY}`, '')).toEqual(category);
    expect(firstScreenReads('/dashboard', '')).toEqual(await pathsOf(() => dashboardApi.summary()));
  });

  it('are none with a query in the URL, or on other screens', () => {
    expect(firstScreenReads(`/inventory/category/${CATEGORY}`, '?asOf=2026-11-01T00:00:00Z')).toEqual([]);
    expect(firstScreenReads('/inventory/not-a-category', '')).toEqual([]);
    expect(firstScreenReads('/', '')).toEqual([]);
  });

  it('are taken once by the API client, and a refused early read is asked again with the app token', async () => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push(`${url} ${(init.headers as Record<string, string>).authorization}`);
      return new Response(JSON.stringify({ from: 'early' }), {
        status: url.includes('refused') ? 401 : 200,
        headers: { 'content-type': 'application/json' },
      });
    });
    readEarly('/dashboard', Promise.resolve('stored-token'));
    readEarly('/refused', Promise.resolve('stored-token'));
    const client = new ApiClient({
      fetch: async () =>
        new Response(JSON.stringify({ from: 'client' }), { headers: { 'content-type': 'application/json' } }),
    });
    client.setTokenSource(async () => 'app-token');
    expect(await client.get('/dashboard')).toEqual({ from: 'early' });
    expect(await client.get('/dashboard')).toEqual({ from: 'client' });
    expect(await client.get('/refused')).toEqual({ from: 'client' });
    expect(calls).toEqual(['/api/dashboard Bearer stored-token', '/api/refused Bearer stored-token']);
  });

  it('start the Category page ready with its data when both reads came back, without asking again', async () => {
    const id = '1bcd006c-fe8e-458f-992d-e7e8120d8d6c';
    const query = { q: '', sort: 'name', order: 'asc', page: 1 } as const;
    vi.stubGlobal(
      'fetch',
      async (url: string) =>
        new Response(
          JSON.stringify(
            url.includes('/items')
              ? { items: [], total: 0, page: 1, pageSize: 12, totalPages: 0 }
              : { id, name: 'Tools' },
          ),
          {
            headers: { 'content-type': 'application/json' },
          },
        ),
    );
    // The router's paths (first-screen-data.ts) are the page's own.
    const reads = firstScreenReads(`/inventory/category/${id}`, '');
    expect(reads).toEqual([categoryPaths.category(id), categoryPaths.items(id, query)]);
    for (const read of reads) readEarly(read, Promise.resolve('stored-token'));
    await earlyReadsParsed();
    const load = vi.fn(async (): Promise<CategoryPageData> => {
      throw new Error('asked again');
    });
    const actor = createActor(
      categoryPageMachine.provide({ actors: { load: fromPromise(load), feed: fromCallback(() => () => undefined) } }),
      {
        input: { params: { categoryId: id, ...query } },
      },
    ).start();
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context.data?.category.name).toBe('Tools');
    expect(load).not.toHaveBeenCalled();
    // A first render React discards and starts over gets the same answers.
    expect(takeEarlyJson(reads)).toEqual([
      { id, name: 'Tools' },
      { items: [], total: 0, page: 1, pageSize: 12, totalPages: 0 },
    ]);
    // It reads again shortly (the early answer may predate the live feed's connection), and
    // keeps showing the data meanwhile.
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    expect(actor.getSnapshot().context.data?.category.name).toBe('Tools');
    actor.stop();
  });

  it('take nothing when one of the reads is missing or was refused, so the page loads them all the usual way', async () => {
    vi.stubGlobal('fetch', async (url: string) =>
      url.includes('refused')
        ? new Response(JSON.stringify({ error: 'Invalid token' }), {
            status: 401,
            headers: { 'content-type': 'application/json' },
          })
        : new Response(JSON.stringify({ ok: true }), { headers: { 'content-type': 'application/json' } }),
    );
    readEarly('/kept', Promise.resolve('stored-token'));
    readEarly('/refused-too', Promise.resolve('stored-token'));
    readEarly('/no-token', Promise.resolve(null)); // no stored token: never asked
    await earlyReadsParsed();
    expect(takeEarlyJson(['/kept', '/refused-too'])).toBeNull();
    expect(takeEarlyJson(['/kept', '/no-token'])).toBeNull();
    // Still there for whoever asks for it alone.
    expect(takeEarlyJson(['/kept'])).toEqual([{ ok: true }]);
  });
});
