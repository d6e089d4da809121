// The API client's retry rules: 3 attempts with 1 s x attempt between them, 429 honoured
// with Retry-After, 4xx final, one Idempotency-Key per call kept across its retries, and
// the messages failures turn into.
import { describe, expect, it } from 'vitest';
import { ApiClient, ApiError, retryAfterMs } from '../../client/lib/api-client.js';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function harness(responses: (Response | Error)[]) {
  const calls: Call[] = [];
  const sleeps: number[] = [];
  let keys = 0;
  const client = new ApiClient({
    fetch: (async (url: string, init: RequestInit) => {
      calls.push({
        url,
        method: String(init.method),
        headers: init.headers as Record<string, string>,
        body: init.body as string | undefined,
      });
      const next = responses.shift();
      if (!next) throw new Error('no more responses');
      if (next instanceof Error) throw next;
      return next;
    }) as typeof fetch,
    sleep: async (ms) => void sleeps.push(ms),
    newKey: () => `key-${++keys}`,
  });
  client.setTokenSource(async () => 'token-abc');
  return { client, calls, sleeps };
}

/** The rejection of a call that must fail. */
const failure = (call: Promise<unknown>): Promise<any> =>
  call.then(
    () => expect.unreachable('the call succeeded'),
    (e) => e,
  );

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('api client', () => {
  it('sends the ID token and returns the JSON body', async () => {
    const { client, calls } = harness([json(200, [{ id: 'c1' }])]);
    expect(await client.get('/categories')).toEqual([{ id: 'c1' }]);
    expect(calls[0]!.url).toBe('/api/categories');
    expect(calls[0]!.headers.authorization).toBe('Bearer token-abc');
    expect(calls[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('retries a failing write 3 times in all, 1 s x attempt apart, with the same Idempotency-Key', async () => {
    const { client, calls, sleeps } = harness([
      json(500, { error: 'Internal server error' }),
      json(503, {}),
      json(201, { id: 'i1' }),
    ]);
    expect(await client.post('/inventory', { name: 'x' })).toEqual({ id: 'i1' });
    expect(calls).toHaveLength(3);
    expect(sleeps).toEqual([1000, 2000]);
    expect(new Set(calls.map((c) => c.headers['idempotency-key']))).toEqual(new Set(['key-1']));
    expect(calls[0]!.body).toBe(JSON.stringify({ name: 'x' }));
    expect(calls[0]!.headers['content-type']).toBe('application/json');
  });

  it('gives each call its own key', async () => {
    const { client, calls } = harness([json(200, {}), json(200, {})]);
    await client.post('/inventory/i1/adjust', { delta: 1, reason: 'correction' });
    await client.post('/inventory/i1/adjust', { delta: 1, reason: 'correction' });
    expect(calls[0]!.headers['idempotency-key']).not.toBe(calls[1]!.headers['idempotency-key']);
  });

  it('does not retry a 4xx other than 429, and shows the server message', async () => {
    const { client, calls, sleeps } = harness([json(409, { error: 'Insufficient stock' })]);
    const error = await failure(client.post('/inventory/i1/adjust', { delta: -5, reason: 'sale' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Insufficient stock');
    expect(error.status).toBe(409);
    expect(calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('keeps the error body (a 409 carries the current item)', async () => {
    const { client } = harness([json(409, { error: 'Item was changed', current: { id: 'i1', version: 4 } })]);
    const error = await failure(client.put('/inventory/i1', { price: 2 }, { ifMatch: 3 }));
    expect(error.body.current.version).toBe(4);
  });

  it('sends If-Match when given', async () => {
    const { client, calls } = harness([new Response(null, { status: 204 })]);
    await client.delete('/inventory/i1', { ifMatch: 7 });
    expect(calls[0]!.headers['if-match']).toBe('7');
    expect(calls[0]!.method).toBe('DELETE');
  });

  it('waits for Retry-After on a 429, then retries', async () => {
    const { client, calls, sleeps } = harness([
      json(429, { error: 'Too many requests' }, { 'retry-after': '2' }),
      json(200, { ok: true }),
    ]);
    expect(await client.get('/inventory')).toEqual({ ok: true });
    expect(calls).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
  });

  it('waits for Retry-After on a 503 (database restarting), then retries with the same key', async () => {
    const { client, calls, sleeps } = harness([
      json(503, { error: 'Database unavailable, try again shortly' }, { 'retry-after': '2' }),
      json(200, { ok: true }),
    ]);
    expect(await client.post('/x', { a: 1 })).toEqual({ ok: true });
    expect(sleeps).toEqual([2000]);
    expect(calls[0]!.headers['idempotency-key']).toBe(calls[1]!.headers['idempotency-key']);
  });

  it('falls back to 1 s x attempt for a 429 without Retry-After, and gives up after the third', async () => {
    const { client, calls, sleeps } = harness([
      json(429, {}),
      json(429, {}),
      json(429, { error: 'Too many requests. Try again in 30 seconds' }),
    ]);
    const error = await failure(client.get('/inventory'));
    expect(error.message).toBe('Too many requests. Try again in 30 seconds');
    expect(calls).toHaveLength(3);
    expect(sleeps).toEqual([1000, 2000]);
  });

  it("says 'HTTP error! status: N' when the error body has no error field", async () => {
    const { client } = harness([json(500, {}), json(500, {}), json(500, { message: 'nope' })]);
    await expect(client.get('/inventory')).rejects.toThrow('HTTP error! status: 500');
  });

  it("says 'Network error' when the body is not JSON", async () => {
    const { client } = harness([new Response('<html>Bad gateway</html>', { status: 400 })]);
    await expect(client.get('/inventory')).rejects.toThrow('Network error');
  });

  it("says 'All retry attempts failed' when no attempt got a response", async () => {
    const { client, calls, sleeps } = harness([
      new TypeError('fetch failed'),
      new TypeError('fetch failed'),
      new TypeError('fetch failed'),
    ]);
    const error = await failure(client.post('/categories', { name: 'A' }));
    expect(error.message).toBe('All retry attempts failed');
    expect(error.status).toBe(0);
    expect(calls).toHaveLength(3);
    expect(sleeps).toEqual([1000, 2000]);
    expect(new Set(calls.map((c) => c.headers['idempotency-key'])).size).toBe(1);
  });

  it('recovers when a later attempt reaches the server', async () => {
    const { client } = harness([new TypeError('fetch failed'), json(200, { id: 'x' })]);
    expect(await client.get('/inventory/x')).toEqual({ id: 'x' });
  });

  it('reads Retry-After as seconds or as a date, capped', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterMs('Tue, 01 Jan 2030 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('3600')).toBe(30_000);
  });
});
